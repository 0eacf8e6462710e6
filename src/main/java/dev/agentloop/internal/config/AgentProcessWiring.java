package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunLifecycle;
import dev.agentloop.internal.security.AgentGrants;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;

/**
 * What a whole agent process gets once the engine has parsed it and {@link AgentParseListener} knows it is an agent:
 * the run lifecycle's listeners on the process, its end events and the elements of a conversation, and, for a new
 * agent, the AgentLoop groups' rights. The end events are noted while the elements are parsed, on the definition
 * itself, so that parallel deployments do not mix. Thread-safe.
 */
final class AgentProcessWiring {

  private static final String END_EVENTS = "agentloop.endEvents";

  private final RunLifecycle lifecycle;
  /** Whether {@code agent-workers} get rights on new agents: only where AgentLoop fences {@code /engine-rest}. */
  private final boolean grantWorkers;

  AgentProcessWiring(RunLifecycle lifecycle, boolean grantWorkers) {
    this.lifecycle = lifecycle;
    this.grantWorkers = grantWorkers;
  }

  /** Notes an end event of the process, which gets its listener once the process turns out to be an agent. */
  void noteEndEvent(ProcessDefinitionEntity definition, ActivityImpl endEvent) {
    endEvents(definition).add(endEvent);
  }

  /** Attaches the run lifecycle to a parsed agent process, and grants the rights on it when it is new. */
  void wire(ProcessDefinitionEntity definition) {
    if (AgentDeploymentCheck.isNewDeployment(definition)) {
      grantRights(definition.getKey());
    }
    definition.addBuiltInListener(ExecutionListener.EVENTNAME_START, lifecycle.onStart());
    definition.addBuiltInListener(ExecutionListener.EVENTNAME_END, lifecycle.onEnd());
    for (ActivityImpl endEvent : endEvents(definition)) {
      endEvent.addBuiltInListener(ExecutionListener.EVENTNAME_END, lifecycle.onEndEvent(endEvent.getId()));
    }
    // what the diagram's own expressions would otherwise have to do with execution.* (refused in an analyst's)
    attach(definition, ReactAgentProcess.CONVERSATION_GOES_ON, ExecutionListener.EVENTNAME_START,
        lifecycle.onAnswerAccepted());
    attach(definition, ReactAgentProcess.RESUME_GATEWAY, ExecutionListener.EVENTNAME_START,
        lifecycle.onResumeGateway());
    attach(definition, ReactAgentProcess.CONVERSATION_IDLE_TIMER, ExecutionListener.EVENTNAME_END,
        lifecycle.onConversationIdle());
  }

  private static void attach(ProcessDefinitionEntity definition, String activityId, String event,
      ExecutionListener listener) {
    ActivityImpl activity = definition.findActivity(activityId);
    if (activity != null) {
      activity.addBuiltInListener(event, listener);
    }
  }

  /**
   * A new agent, say an analyst's diagram deployed from Modeler, gets the AgentLoop groups' rights in
   * the deployment's own transaction, whoever deploys it (granting needs no right of the deployer).
   */
  private void grantRights(String processDefinitionKey) {
    ProcessEngineConfigurationImpl engine = Context.getProcessEngineConfiguration();
    CommandContext command = Context.getCommandContext();
    if (engine == null || command == null || !engine.isAuthorizationEnabled()) {
      return;
    }
    command.runWithoutAuthorization(() -> {
      AgentGrants.ensure(engine.getAuthorizationService(), processDefinitionKey, grantWorkers);
      return null;
    });
  }

  @SuppressWarnings("unchecked")
  private static List<ActivityImpl> endEvents(ProcessDefinitionEntity definition) {
    List<ActivityImpl> events = (List<ActivityImpl>) definition.getProperty(END_EVENTS);
    if (events == null) {
      events = new ArrayList<>();
      definition.setProperty(END_EVENTS, events);
    }
    return events;
  }
}
