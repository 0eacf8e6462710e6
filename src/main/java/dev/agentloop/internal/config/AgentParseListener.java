package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.compose.ParallelChildRuns;
import dev.agentloop.internal.agent.definition.AgentDiagramRules;
import dev.agentloop.internal.agent.loop.RemoteToolTasks;
import dev.agentloop.internal.agent.loop.RunTimeRanOut;
import dev.agentloop.internal.agent.run.RunLifecycle;
import dev.agentloop.internal.review.Reviews;
import dev.agentloop.internal.worker.TaskArrivals;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.BpmnParseException;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.bpmn.behavior.CallableElementActivityBehavior;
import org.camunda.bpm.engine.impl.bpmn.behavior.UserTaskActivityBehavior;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.core.model.CallableElement;
import org.camunda.bpm.engine.impl.core.model.CallableElementParameter;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.task.TaskDefinition;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * Recognises agent processes at deployment (they have a service task on an {@code agentloop.*}
 * topic), has them checked ({@link AgentDeploymentCheck}), has the run lifecycle attached to them and
 * the AgentLoop groups granted their rights on new ones ({@link AgentProcessWiring}), lets their tasks
 * wake the embedded worker, connects their review tasks (user tasks marked
 * {@code agentloop.review}) to the reviews and their remote tool tasks (topic
 * {@code agentloop.tool.${tool}}) to {@link RemoteToolTasks}, and says why a run left its agent
 * loop when the loop's run-time timer fires. The engine parses all elements of a process before it
 * calls {@link #parseProcess}, so by then we know whether it is an agent and which errors it catches.
 */
class AgentParseListener extends AbstractBpmnParseListener {

  /** Set on a process definition that is an agent, while its elements are parsed. */
  static final String IS_AGENT = "agentloop.isAgent";

  private static final String REVIEW_KIND = "agentloop.reviewKind";
  /** Marks the scope (sub-process) that holds an agent's think task: its agent loop. */
  private static final String AGENT_LOOP = "agentloop.agentLoop";

  private final AgentProcessWiring processWiring;
  private final TaskArrivals arrivals;
  private final Reviews reviews;
  private final AgentDeploymentCheck check;
  private final RemoteToolTasks remoteToolTasks;
  private final ChildRuns childRuns;
  private final RunTimeRanOut runTimeRanOut;

  AgentParseListener(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews, AgentDiagramRules rules,
      RemoteToolTasks remoteToolTasks, ChildRuns childRuns, RunTimeRanOut runTimeRanOut, boolean grantWorkers) {
    this.processWiring = new AgentProcessWiring(lifecycle, grantWorkers);
    this.arrivals = arrivals;
    this.reviews = reviews;
    this.check = new AgentDeploymentCheck(rules);
    this.remoteToolTasks = remoteToolTasks;
    this.childRuns = childRuns;
    this.runTimeRanOut = runTimeRanOut;
  }

  /** A user task marked with {@code agentloop.review} gets the listeners that fill and read its form. */
  @Override
  public void parseUserTask(Element userTaskElement, ScopeImpl scope, ActivityImpl activity) {
    Map<String, String> properties = ElementProperties.of(userTaskElement);
    String kind = properties.get(ReviewKind.PROPERTY);
    if (kind == null) {
      return;
    }
    ReviewKind review = reviewKind(userTaskElement, activity, kind);
    check.note(activity.getProcessDefinition(), userTaskElement, activity.getId(), null, kind, properties);
    TaskDefinition task = ((UserTaskActivityBehavior) activity.getActivityBehavior()).getTaskDefinition();
    task.addBuiltInTaskListener(TaskListener.EVENTNAME_CREATE, reviews.taskListener(review));
    task.addBuiltInTaskListener(TaskListener.EVENTNAME_COMPLETE, reviews.taskListener(review));
    task.setTaskFormHandler(reviews.formHandler(task.getTaskFormHandler()));
    activity.setProperty(REVIEW_KIND, review);
  }

  /**
   * A timer on an ask-human task tells the agent that nobody answered; a timer on an agent loop is
   * its run-time budget, and says so when it fires.
   */
  @Override
  public void parseBoundaryTimerEventDefinition(Element timerEventDefinition, boolean interrupting, ActivityImpl timer) {
    if (timer.getEventScope() != null && timer.getEventScope().getProperty(REVIEW_KIND) == ReviewKind.ASK_HUMAN) {
      timer.addBuiltInListener(ExecutionListener.EVENTNAME_START, reviews.noAnswerListener());
    }
    if (timer.getEventScope() != null && Boolean.TRUE.equals(timer.getEventScope().getProperty(AGENT_LOOP))) {
      timer.addBuiltInListener(ExecutionListener.EVENTNAME_START, runTimeRanOut.listener());
    }
  }

  @Override
  public void parseServiceTask(Element serviceTaskElement, ScopeImpl scope, ActivityImpl activity) {
    String topic = serviceTaskElement.attributeNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "topic");
    boolean agentTask = topic != null && topic.startsWith(ReactAgentProcess.TOPIC_PREFIX);
    if (ReactAgentProcess.TOPIC_THINK.equals(topic) && scope instanceof ActivityImpl loop) {
      loop.setProperty(AGENT_LOOP, true);
    }
    if (agentTask) {
      activity.getProcessDefinition().setProperty(IS_AGENT, true);
    }
    if (agentTask && topic.startsWith(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX)) {
      // served by remote workers only: the embedded worker has nothing to wake up for
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_START, remoteToolTasks.startListener());
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_END, remoteToolTasks.endListener());
    } else if (agentTask) {
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_START, arrivals.startListener());
      runInLoopExecution(activity);
    }
    if (agentTask || "external".equals(serviceTaskElement.attributeNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "type"))) {
      check.note(activity.getProcessDefinition(), serviceTaskElement, activity.getId(), topic, null,
          agentTask ? ElementProperties.of(serviceTaskElement) : Map.of());
    }
  }

  /**
   * Camunda makes every external task a scope, so that a completion's local variables have an
   * execution of their own: each step would create a child execution and delete it again, with its
   * reads, for nothing, since AgentLoop's own steps set no local variables. Those of an agent's
   * embedded topics run in their loop's execution instead, like a user task. What needs a scope
   * makes the task one again, since the engine parses it after this: input/output mappings on the
   * task, a boundary event attached to it.
   */
  private static void runInLoopExecution(ActivityImpl activity) {
    activity.setScope(false);
  }

  /**
   * A call activity marked {@code agentloop.callAgent} asks another agent: it gets the listeners that hand it the
   * pending call and write the child run's answer as the call's observation.
   */
  @Override
  public void parseCallActivity(Element callActivityElement, ScopeImpl scope, ActivityImpl activity) {
    Map<String, String> properties = ElementProperties.of(callActivityElement);
    if (!"true".equals(properties.get(ReactAgentProcess.CALL_AGENT_PROPERTY))) {
      return;
    }
    activity.addBuiltInListener(ExecutionListener.EVENTNAME_START, childRuns.startListener());
    if (ParallelChildRuns.isInstanceOfMultiInstance(scope)) {
      // all calls of a turn at once: each child's run id stays with its own instance until all have ended
      keepChildRunLocal(activity);
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_END, childRuns.parallel().instanceEndListener());
      ((ActivityImpl) scope).addBuiltInListener(ExecutionListener.EVENTNAME_END,
          childRuns.parallel().allEndedListener());
    } else {
      activity.addBuiltInListener(ExecutionListener.EVENTNAME_END, childRuns.endListener());
    }
    check.note(activity.getProcessDefinition(), callActivityElement, activity.getId(), null, null, properties);
  }

  /**
   * The mapping of the child's run id must set it on the instance's own execution: mapped to the caller's, one child
   * ending would overwrite the id another child left there a moment before. Element templates cannot write a local
   * output mapping, so a diagram made from one gets it here.
   */
  private static void keepChildRunLocal(ActivityImpl activity) {
    if (!(activity.getActivityBehavior() instanceof CallableElementActivityBehavior behavior)) {
      return;
    }
    CallableElement callable = behavior.getCallableElement();
    List<CallableElementParameter> moved = callable.getOutputs().stream()
        .filter(output -> ReactAgentProcess.CHILD_RUN_ID.name().equals(output.getTarget())).toList();
    callable.getOutputs().removeAll(moved);
    moved.forEach(callable::addOutputLocal);
  }

  @Override
  public void parseEndEvent(Element endEventElement, ScopeImpl scope, ActivityImpl activity) {
    if (scope instanceof ProcessDefinitionEntity definition) {
      processWiring.noteEndEvent(definition, activity);
    }
  }

  @Override
  public void parseProcess(Element processElement, ProcessDefinitionEntity definition) {
    boolean agent = Boolean.TRUE.equals(definition.getProperty(IS_AGENT));
    check.check(definition, agent);
    if (agent) {
      processWiring.wire(definition);
    }
  }

  private static ReviewKind reviewKind(Element element, ActivityImpl activity, String kind) {
    try {
      return ReviewKind.of(kind);
    } catch (IllegalArgumentException e) {
      DeploymentRefusals.refusedOnPurpose();
      throw new BpmnParseException("element '" + activity.getId() + "': property '" + ReviewKind.PROPERTY + "': "
          + e.getMessage(), element);
    }
  }
}
