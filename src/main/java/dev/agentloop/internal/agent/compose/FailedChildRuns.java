package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.ChildRunCannotFinish;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import java.util.Map;
import java.util.function.Consumer;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.incident.IncidentContext;
import org.camunda.bpm.engine.impl.incident.IncidentHandler;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.runtime.Incident;

/**
 * A child run whose step failed for good is its caller's news: around the engine's incident handlers (whichever the
 * host has), an incident raised in a run that another agent called announces the child as unable to finish
 * ({@link ChildRunCannotFinish}); after the incident's transaction commits, the child is stopped with the incident's
 * message, and its caller observes at once, in words, that it failed — instead of waiting for it until its own run
 * time runs out. The incident itself is raised as before (and resolved when the child is stopped). Incidents of runs
 * that no agent called are the engine's alone. Thread-safe.
 */
public final class FailedChildRuns {

  private final AgentDefinitions definitions;
  private final Consumer<Object> events;

  /** @param events where a child that cannot finish is announced, e.g. Spring's event publisher */
  public FailedChildRuns(AgentDefinitions definitions, Consumer<Object> events) {
    this.definitions = definitions;
    this.events = events;
  }

  /** Puts this around the engine's handler of each of the incident types in {@code handlers}, in place. */
  public void around(Map<String, IncidentHandler> handlers) {
    handlers.replaceAll((type, handler) -> handler instanceof Around ? handler : new Around(handler));
  }

  /** The child's step failed for good: announced when an agent called the run. */
  private void failed(IncidentContext context, String message) {
    if (context.getExecutionId() == null || !definitions.isAgent(context.getProcessDefinitionId())) {
      return;
    }
    ExecutionEntity execution = Context.getCommandContext().getExecutionManager()
        .findExecutionById(context.getExecutionId());
    ExecutionEntity caller = execution == null ? null : execution.getProcessInstance().getSuperExecution();
    if (caller != null && definitions.isAgent(caller.getProcessDefinitionId())) {
      String step = context.getActivityId() == null ? "a step" : "its step '" + context.getActivityId() + "'";
      events.accept(new ChildRunCannotFinish(execution.getProcessInstanceId(), step + " failed and will not be"
          + " retried (an incident): " + (message == null ? "no message" : message)));
    }
  }

  /** One incident type's handler, whichever the engine has, with the child's failure announced. */
  private final class Around implements IncidentHandler {

    private final IncidentHandler handler;

    Around(IncidentHandler handler) {
      this.handler = handler;
    }

    @Override
    public String getIncidentHandlerType() {
      return handler.getIncidentHandlerType();
    }

    @Override
    public Incident handleIncident(IncidentContext context, String message) {
      Incident incident = handler.handleIncident(context, message);
      failed(context, message);
      return incident;
    }

    @Override
    public void resolveIncident(IncidentContext context) {
      handler.resolveIncident(context);
    }

    @Override
    public void deleteIncident(IncidentContext context) {
      handler.deleteIncident(context);
    }
  }
}
