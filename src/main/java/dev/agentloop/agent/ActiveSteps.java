package dev.agentloop.agent;

import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.impl.util.ClockUtil;

/**
 * Reads what a running run does at this moment from the engine: the newest unfinished activity that
 * is not a scope (the loop sub-process is always unfinished while the run loops), the external task
 * there (locked: its call is under way; failed: it waits for a retry) and, in {@code act}, the calls
 * of the current turn without an observation. Needs history level activity or higher, Camunda's default.
 * Callers run it without authorization checks: how a run stands is the same for everyone who may read it.
 */
final class ActiveSteps {

  private static final Set<String> SCOPES = Set.of("subProcess", "multiInstanceBody", "processDefinition");
  private static final int RECENT_STEPS = 64;

  private final ProcessEngine engine;
  private final StepStore store;

  ActiveSteps(ProcessEngine engine, StepStore store) {
    this.engine = engine;
    this.store = store;
  }

  /** The active step, or {@code null} when no activity is unfinished (the run is between transactions). */
  ActiveStep of(String runId) {
    HistoricActivityInstance activity = engine.getHistoryService().createHistoricActivityInstanceQuery()
        .processInstanceId(runId).unfinished().list().stream()
        .filter(instance -> !SCOPES.contains(instance.getActivityType()))
        .max(Comparator.comparing(HistoricActivityInstance::getStartTime))
        .orElse(null);
    if (activity == null) {
      return null;
    }
    Instant since = activity.getStartTime().toInstant();
    long seconds = Math.max(0, Duration.between(since, ClockUtil.getCurrentTime().toInstant()).toSeconds());
    String id = activity.getActivityId();
    String name = activity.getActivityName() == null ? id : activity.getActivityName();
    if (activity.getTaskId() != null) {
      return new ActiveStep("person", id, name, List.of(), activity.getTaskId(), since, seconds, null);
    }
    ExternalTask task = engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(runId)
        .activityId(id).list().stream().findFirst().orElse(null);
    if (task == null) {
      return new ActiveStep("engine", id, name, List.of(), null, since, seconds, null);
    }
    if (task.getErrorMessage() != null && (task.getLockExpirationTime() == null
        || task.getLockExpirationTime().before(ClockUtil.getCurrentTime()))) {
      return new ActiveStep("retry", id, name, List.of(), null, since, seconds, task.getErrorMessage());
    }
    if (task.getTopicName().startsWith(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX)) {
      return new ActiveStep("remote-tool", id, name,
          List.of(task.getTopicName().substring(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX.length())), null, since,
          seconds, null);
    }
    if (task.getTopicName().equals(ReactAgentProcess.TOPIC_ACT)) {
      return new ActiveStep("tools", id, name, pendingTools(runId), null, since, seconds, null);
    }
    return new ActiveStep("model", id, name, List.of(), null, since, seconds, null);
  }

  /** The tools of the newest turn's calls that have no observation yet, in the order they were made. */
  private List<String> pendingTools(String runId) {
    List<Step> recent = store.recentPath(runId, RECENT_STEPS);
    int turnStart = recent.size();
    while (turnStart > 0 && recent.get(turnStart - 1).kind() != StepKind.THOUGHT) {
      turnStart--;
    }
    List<Step> turn = recent.subList(turnStart, recent.size());
    Set<String> observed = new HashSet<>();
    turn.stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .forEach(step -> observed.add(Observation.from(step).callId()));
    return turn.stream().filter(step -> step.kind() == StepKind.ACTION).map(Action::from)
        .filter(action -> !observed.contains(action.callId())).map(Action::tool).toList();
  }
}
