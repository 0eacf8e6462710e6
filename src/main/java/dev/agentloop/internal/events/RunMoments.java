package dev.agentloop.internal.events;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepReads;
import java.util.Comparator;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.task.Task;

/**
 * Reads how a run stands for its followers: the engine first (tasks, incidents, a conversation's wait), the run's
 * row after it. A step and the task it leads to commit together, so a task read is never newer than the steps read
 * after it. Runs on the followers' own threads, which carry no user: how a run stands is the same for all who may
 * read it. Thread-safe.
 */
final class RunMoments {

  private final ProcessEngine engine;
  private final StepReads store;
  private final RunService runs;

  RunMoments(ProcessEngine engine, StepReads store, RunService runs) {
    this.engine = engine;
    this.store = store;
    this.runs = runs;
  }

  RunMoment read(String runId) {
    List<RunEvent.PersonTask> tasks = engine.getTaskService().createTaskQuery().processInstanceId(runId).list()
        .stream().sorted(Comparator.comparing(Task::getCreateTime)).map(RunMoments::personTask).toList();
    List<Incident> incidents = engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list();
    boolean followUp = tasks.isEmpty() && runs.waitsForFollowUp(runId);
    RunRecord run = store.run(runId);
    Incident incident = incidents.isEmpty() ? null : incidents.get(0);
    return new RunMoment(run.status(), run.head().stepCount(), tasks, followUp,
        incident == null ? null : incident.getId(), incident == null ? null : incident.getIncidentMessage());
  }

  private static RunEvent.PersonTask personTask(Task task) {
    return new RunEvent.PersonTask(task.getId(), task.getTaskDefinitionKey(), task.getName(),
        task.getCreateTime() == null ? null : task.getCreateTime().toInstant());
  }
}
