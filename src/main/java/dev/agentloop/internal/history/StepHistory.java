package dev.agentloop.internal.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParseListener;
import org.camunda.bpm.engine.impl.history.HistoryLevel;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * Leaves out of Camunda's history what an agent writes there once per step and nobody reads: the
 * activity instances of its step tasks (plan, think, act: external tasks on AgentLoop's step topics)
 * and of the gateways of agent processes, which only route by what a step decided, and the
 * external-task log of the step tasks' creation, success and deletion. The step store keeps every
 * step with its author, time and content, in the transaction that completes the task. At history
 * level {@code audit} that saves an insert per gateway passed, and an insert, a select and an
 * update per step task.
 *
 * <p>Everything else stays as the host's history level has it: process instances, user tasks
 * (reviews, ask-human, agent stuck) and their activity instances, events, sub-processes, remote tool
 * calls, variables, incidents, failures of step tasks, and every element of processes that are not
 * agents. A process is an agent when it has a step task, as {@code config.AgentParseListener} says.
 *
 * <p>The history level keeps the host's id and name, so the database's recorded level still
 * matches it. Thread-safe once the engine is built.
 */
public final class StepHistory {

  /** Set on the activities whose activity instances history leaves out. */
  static final String QUIET = "agentloop.quietHistory";
  private static final String HAS_STEP_TASKS = "agentloop.hasStepTasks";
  private static final String GATEWAYS = "agentloop.gateways";

  private final Set<String> stepTopics;

  /** @param stepTopics the topics of the agent's step tasks, served by AgentLoop's own worker */
  public StepHistory(Set<String> stepTopics) {
    this.stepTopics = Set.copyOf(stepTopics);
  }

  /** Marks the step tasks and the gateways of agent processes at deployment; register it after the engine's. */
  public BpmnParseListener parseListener() {
    return new Marker();
  }

  /** The host's history level without the agents' per-step records; {@code level} itself when already wrapped. */
  public HistoryLevel historyLevel(HistoryLevel level) {
    return level instanceof AgentStepHistoryLevel ? level : new AgentStepHistoryLevel(level, stepTopics);
  }

  private final class Marker extends AbstractBpmnParseListener {

    @Override
    public void parseServiceTask(Element serviceTaskElement, ScopeImpl scope, ActivityImpl activity) {
      String topic = serviceTaskElement.attributeNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "topic");
      if (topic != null && stepTopics.contains(topic)) {
        activity.setProperty(QUIET, true);
        activity.getProcessDefinition().setProperty(HAS_STEP_TASKS, true);
      }
    }

    @Override
    public void parseExclusiveGateway(Element gatewayElement, ScopeImpl scope, ActivityImpl activity) {
      gateways((ProcessDefinitionEntity) activity.getProcessDefinition()).add(activity);
    }

    @Override
    public void parseInclusiveGateway(Element gatewayElement, ScopeImpl scope, ActivityImpl activity) {
      gateways((ProcessDefinitionEntity) activity.getProcessDefinition()).add(activity);
    }

    /** Called once all elements are parsed: only now is it known whether the process is an agent. */
    @Override
    public void parseProcess(Element processElement, ProcessDefinitionEntity definition) {
      if (Boolean.TRUE.equals(definition.getProperty(HAS_STEP_TASKS))) {
        gateways(definition).forEach(gateway -> gateway.setProperty(QUIET, true));
      }
      definition.setProperty(GATEWAYS, null);
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
}
