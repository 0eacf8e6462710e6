package dev.agentloop.config;

import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.RunLifecycle;
import dev.agentloop.worker.TaskArrivals;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * Recognises agent processes at deployment (they have a service task on an {@code agentloop.*}
 * topic), attaches the run lifecycle to them and lets their tasks wake the embedded worker. The engine parses all elements of a process
 * before it calls {@link #parseProcess}, so by then we know whether it is an agent.
 */
class AgentParseListener extends AbstractBpmnParseListener {

  private static final String IS_AGENT = "agentloop.isAgent";
  private static final String END_EVENTS = "agentloop.endEvents";

  private final RunLifecycle lifecycle;
  private final TaskArrivals arrivals;

  AgentParseListener(RunLifecycle lifecycle, TaskArrivals arrivals) {
    this.lifecycle = lifecycle;
    this.arrivals = arrivals;
  }

  @Override
  public void parseServiceTask(Element serviceTaskElement, ScopeImpl scope, ActivityImpl activity) {
    String topic = serviceTaskElement.attributeNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "topic");
    if (topic != null && topic.startsWith(ReactAgentProcess.TOPIC_PREFIX)) {
      activity.getProcessDefinition().setProperty(IS_AGENT, true);
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_START, arrivals.startListener());
    }
  }

  @Override
  public void parseEndEvent(Element endEventElement, ScopeImpl scope, ActivityImpl activity) {
    if (scope instanceof ProcessDefinitionEntity definition) {
      endEvents(definition).add(activity);
    }
  }

  @Override
  public void parseProcess(Element processElement, ProcessDefinitionEntity definition) {
    if (!Boolean.TRUE.equals(definition.getProperty(IS_AGENT))) {
      return;
    }
    definition.addBuiltInListener(ExecutionListener.EVENTNAME_START, lifecycle.onStart());
    definition.addBuiltInListener(ExecutionListener.EVENTNAME_END, lifecycle.onEnd());
    for (ActivityImpl endEvent : endEvents(definition)) {
      endEvent.addBuiltInListener(ExecutionListener.EVENTNAME_END, lifecycle.onEndEvent(endEvent.getId()));
    }
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
