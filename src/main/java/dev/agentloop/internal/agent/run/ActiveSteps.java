package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.api.ActiveStep;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.exception.NullValueException;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cmd.GetActivityInstanceCmd;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.ActivityInstance;
import org.camunda.bpm.engine.runtime.EventSubscription;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.model.bpmn.instance.FlowElement;

/**
 * Reads what a running run does at this moment from the engine's runtime state, not its history
 * (which leaves out the agent's step tasks, see package {@code history}): a person's task when one is
 * open, else the external task the run waits at (locked: its call is under way; failed: it waits for
 * a retry; waiting for a model slot: how many go before it) and, in {@code act}, the calls of the current turn
 * without an observation; the child runs it waits for, with what each does (a child stuck in {@code agentStuck} with
 * why); else the activity the token is in. Callers run it without authorization checks: how a run stands is the same
 * for everyone who may read it.
 */
final class ActiveSteps {

  private final ProcessEngine engine;
  private final StepReads store;
  private final ModelSlotWait slots;

  ActiveSteps(ProcessEngine engine, StepReads store, ModelQueue queue) {
    this.engine = engine;
    this.store = store;
    this.slots = new ModelSlotWait(engine, queue);
  }

  /** The active step, or {@code null} when the run has no token (it is between transactions or ended). */
  ActiveStep of(String runId) {
    Task person = engine.getTaskService().createTaskQuery().processInstanceId(runId).list().stream()
        .max(Comparator.comparing(Task::getCreateTime)).orElse(null);
    if (person != null) {
      // the diagram's name: the task's own name carries the run's question too, for Tasklist's list
      String name = nameOf(person.getProcessDefinitionId(), person.getTaskDefinitionKey());
      return step("person", person.getTaskDefinitionKey(), name == null ? person.getName() : name, List.of(),
          person.getId(), person.getCreateTime(), stuckBecause(person));
    }
    ExternalTask task = engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(runId).list()
        .stream().max(Comparator.comparing(ExternalTask::getCreateTime)).orElse(null);
    if (task == null) {
      List<ActiveStep.Child> children = children(runId);
      if (!children.isEmpty()) {
        ActivityInstance waiting = leaf(activityInstance(runId));
        String id = waiting == null ? ReactAgentProcess.CALL_AGENT : waiting.getActivityId();
        return step("agents", id, waiting == null ? null : waiting.getActivityName(), List.of(), null, null, null,
            children);
      }
      ActivityInstance leaf = leaf(activityInstance(runId));
      return leaf == null ? null
          : step("engine", leaf.getActivityId(), leaf.getActivityName(), List.of(), null, waitingSince(runId), null);
    }
    String id = task.getActivityId();
    String name = nameOf(task.getProcessDefinitionId(), id);
    if (task.getErrorMessage() != null && (task.getLockExpirationTime() == null
        || task.getLockExpirationTime().before(ClockUtil.getCurrentTime()))) {
      return step("retry", id, name, List.of(), null, task.getCreateTime(), task.getErrorMessage());
    }
    if (task.getTopicName().startsWith(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX)) {
      return step("remote-tool", id, name,
          List.of(task.getTopicName().substring(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX.length())), null,
          task.getCreateTime(), null);
    }
    if (task.getTopicName().equals(ReactAgentProcess.TOPIC_ACT)) {
      return step("tools", id, name, pendingTools(runId), null, task.getCreateTime(), null);
    }
    ActiveStep model = step("model", id, name, List.of(), null, task.getCreateTime(), null);
    Integer ahead = slots.ahead(runId, task);
    return ahead == null ? model : new ActiveStep(model.kind(), model.activity(), model.activityName(), model.tools(),
        null, model.since(), model.seconds(), null, List.of(), ahead);
  }

  private static ActiveStep step(String kind, String id, String name, List<String> tools, String taskId, Date since,
      String problem) {
    return step(kind, id, name, tools, taskId, since, problem, List.of());
  }

  private static ActiveStep step(String kind, String id, String name, List<String> tools, String taskId, Date since,
      String problem, List<ActiveStep.Child> children) {
    Instant start = since == null ? null : since.toInstant();
    long seconds = start == null ? 0 : Math.max(0, Duration.between(start, ClockUtil.getCurrentTime().toInstant())
        .toSeconds());
    return new ActiveStep(kind, id, name == null ? id : name, tools, taskId, start, seconds, problem, children, null);
  }

  /**
   * The agent runs this run waits for: its child runs, each with what it does now (its own children's too, as deep
   * as agents call agents), in the order they started.
   */
  private List<ActiveStep.Child> children(String runId) {
    List<RunRecord> runs = new ArrayList<>();
    for (ProcessInstance child : engine.getRuntimeService().createProcessInstanceQuery().superProcessInstanceId(runId)
        .list()) {
      try {
        runs.add(store.run(child.getId()));
      } catch (UnknownRunException e) {
        // a process that is no agent: nothing of AgentLoop's to show
      }
    }
    return runs.stream().sorted(Comparator.comparing(RunRecord::createdAt))
        .map(run -> new ActiveStep.Child(run.runId(), run.agentKey(), of(run.runId()))).toList();
  }

  /**
   * Since when the run waits at an event (a conversation for its next question, a timer): when its newest event
   * subscription was made; {@code null} where it waits for none. An activity instance of the runtime has no start.
   */
  private Date waitingSince(String runId) {
    return engine.getRuntimeService().createEventSubscriptionQuery().processInstanceId(runId).list().stream()
        .map(EventSubscription::getCreated).filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
  }

  /** Why a run waits in {@code agentStuck}, in words ("LOOP_DETECTED: …"); {@code null} at any other task. */
  private String stuckBecause(Task task) {
    if (!ReactAgentProcess.AGENT_STUCK.equals(task.getTaskDefinitionKey())) {
      return null;
    }
    // a query, not a read of the task: the task may be decided while the view is read
    Map<String, Object> why = new HashMap<>();
    engine.getRuntimeService().createVariableInstanceQuery().processInstanceIdIn(task.getProcessInstanceId())
        .variableNameIn(ReactAgentProcess.ESCAPE_CODE.name(), ReactAgentProcess.ESCAPE_REASON.name()).list()
        .forEach(variable -> why.put(variable.getName(), variable.getValue()));
    Object code = why.get(ReactAgentProcess.ESCAPE_CODE.name());
    Object reason = why.get(ReactAgentProcess.ESCAPE_REASON.name());
    return (code == null ? "stuck" : code) + ": " + (reason == null ? "(no reason given)" : reason);
  }

  /**
   * The run's activity instance tree, or {@code null} when it has just ended: a child run shown with its caller may
   * end between two of these queries, and then the engine finds no execution of it to restore the tree from. Read in
   * a command of its own, so that the engine's refusal does not roll back the command that reads the whole view.
   */
  private ActivityInstance activityInstance(String runId) {
    try {
      return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequiresNew()
          .execute(context -> context.runWithoutAuthorization(() -> new GetActivityInstanceCmd(runId).execute(context)));
    } catch (NullValueException e) {
      return null;
    }
  }

  /** The newest leaf of the activity instance tree: the activity the token is in, not the scopes around it. */
  private static ActivityInstance leaf(ActivityInstance instance) {
    if (instance == null) {
      return null;
    }
    ActivityInstance[] children = instance.getChildActivityInstances();
    return children.length == 0 ? (instance.getParentActivityInstanceId() == null ? null : instance)
        : leaf(children[children.length - 1]);
  }

  private String nameOf(String processDefinitionId, String activityId) {
    FlowElement element = engine.getRepositoryService().getBpmnModelInstance(processDefinitionId)
        .getModelElementById(activityId);
    return element == null ? null : element.getName();
  }

  /** The tools of the newest turn's calls that have no observation yet, in the order they were made. */
  private List<String> pendingTools(String runId) {
    return Turn.newest(store.recentPath(runId, Turn.WINDOW)).open().stream().map(Action::tool).toList();
  }
}
