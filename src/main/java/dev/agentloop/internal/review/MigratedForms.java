package dev.agentloop.internal.review;

import dev.agentloop.internal.resume.RunMigrated;
import java.util.Map;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.springframework.context.event.EventListener;

/**
 * The open review forms of a run that moved to another version of its agent say so at once: their agent version,
 * and the move as the last change a person made to the run. Their form data was made when the task was created,
 * and a migration keeps the task (it creates none). In the transaction of the move. Thread-safe.
 */
class MigratedForms {

  private final TaskService tasks;

  MigratedForms(TaskService tasks) {
    this.tasks = tasks;
  }

  @EventListener
  void onRunMigrated(RunMigrated migrated) {
    Map<String, Object> fields = Map.of(
        Reviews.AGENT_VERSION, ReviewTask.agentVersion(migrated.agentKey(), migrated.decision().toVersion()),
        Reviews.LAST_CHANGE, LastChange.of(migrated.decision()));
    for (Task task : tasks.createTaskQuery().processInstanceId(migrated.runId()).list()) {
      tasks.setVariablesLocal(task.getId(), fields);
    }
  }
}
