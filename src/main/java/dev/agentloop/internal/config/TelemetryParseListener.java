package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.telemetry.RunTraces;
import dev.agentloop.internal.telemetry.ToolSpans;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.bpmn.behavior.UserTaskActivityBehavior;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParseUtil;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * Makes agent runs traces ({@code dev.agentloop.internal.telemetry}): a run's start stores its trace context, a review task's
 * completion is a person's decision, a remote tool task is a tool call. Parsed before {@link AgentParseListener}, so
 * that its listeners see what a remote worker completed the task with before the call is observed, and built-in, so
 * that no diagram can lose them. Where the host has no tracing they do nothing.
 */
class TelemetryParseListener extends AbstractBpmnParseListener {

  private static final String IS_AGENT = "agentloop.telemetry.isAgent";

  private final RunTraces traces;
  private final DecisionSpans decisions;
  private final ToolSpans tools;

  TelemetryParseListener(RunTraces traces, DecisionSpans decisions, ToolSpans tools) {
    this.traces = traces;
    this.decisions = decisions;
    this.tools = tools;
  }

  @Override
  public void parseUserTask(Element userTaskElement, ScopeImpl scope, ActivityImpl activity) {
    var properties = BpmnParseUtil.parseCamundaExtensionProperties(userTaskElement);
    if (properties == null || !properties.containsKey(ReviewKind.PROPERTY)) {
      return;
    }
    ((UserTaskActivityBehavior) activity.getActivityBehavior()).getTaskDefinition()
        .addBuiltInTaskListener(TaskListener.EVENTNAME_COMPLETE, decisions.onReviewCompleted());
  }

  @Override
  public void parseServiceTask(Element serviceTaskElement, ScopeImpl scope, ActivityImpl activity) {
    String topic = serviceTaskElement.attributeNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "topic");
    if (topic == null || !topic.startsWith(ReactAgentProcess.TOPIC_PREFIX)) {
      return;
    }
    activity.getProcessDefinition().setProperty(IS_AGENT, true);
    if (topic.startsWith(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX)) {
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_START, tools.remoteStartListener());
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_END, tools.remoteEndListener(
          ReactAgentProcess.CALL_ID.name(), ReactAgentProcess.TOOL.name(), ReactAgentProcess.ERROR, null));
    }
  }

  @Override
  public void parseProcess(Element processElement, ProcessDefinitionEntity definition) {
    if (Boolean.TRUE.equals(definition.getProperty(IS_AGENT))) {
      definition.addBuiltInListener(ExecutionListener.EVENTNAME_START, traces.onRunStart(ReactAgentProcess.CALL_ID.name()));
      definition.addBuiltInListener(ExecutionListener.EVENTNAME_END, traces.onRunEnd());
    }
  }
}
