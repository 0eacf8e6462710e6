package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.resume.PendingMigrations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.bpmn.behavior.UserTaskActivityBehavior;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParseUtil;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * Tells {@link PendingMigrations} when an agent's run reaches a wait: a review task is created, or the run waits at
 * an event-based gateway (a conversation waiting for its next question). A run that was busy when a migration asked
 * for it moves then. Built-in listeners, so a modification that skips the diagram's own cannot lose them.
 */
class MigrationParseListener extends AbstractBpmnParseListener {

  private static final String GATEWAYS = "agentloop.eventGateways";

  private final PendingMigrations pending;

  MigrationParseListener(PendingMigrations pending) {
    this.pending = pending;
  }

  @Override
  public void parseUserTask(Element userTaskElement, ScopeImpl scope, ActivityImpl activity) {
    Map<String, String> properties = BpmnParseUtil.parseCamundaExtensionProperties(userTaskElement);
    if (properties != null && properties.containsKey(ReviewKind.PROPERTY)) {
      ((UserTaskActivityBehavior) activity.getActivityBehavior()).getTaskDefinition()
          .addBuiltInTaskListener(TaskListener.EVENTNAME_CREATE, pending.onTaskCreated());
    }
  }

  @Override
  public void parseEventBasedGateway(Element gatewayElement, ScopeImpl scope, ActivityImpl activity) {
    gateways((ProcessDefinitionEntity) activity.getProcessDefinition()).add(activity);
  }

  /** Only an agent's gateways: a business process's runs are none of AgentLoop's to move. */
  @Override
  public void parseProcess(Element processElement, ProcessDefinitionEntity definition) {
    if (Boolean.TRUE.equals(definition.getProperty(AgentParseListener.IS_AGENT))) {
      gateways(definition).forEach(gateway ->
          gateway.addBuiltInListener(ExecutionListener.EVENTNAME_START, pending.onWaitingForEvents()));
    }
  }

  @SuppressWarnings("unchecked")
  private static List<ActivityImpl> gateways(ProcessDefinitionEntity definition) {
    List<ActivityImpl> gateways = (List<ActivityImpl>) definition.getProperty(GATEWAYS);
    if (gateways == null) {
      gateways = new ArrayList<>();
      definition.setProperty(GATEWAYS, gateways);
    }
    return gateways;
  }
}
