package dev.agentloop;

import static org.awaitility.Awaitility.await;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.Variables;

/**
 * Waits for runs driven by the embedded worker, and for their user tasks; the bound is generous, it
 * is not a timing assertion.
 */
public final class Runs {

  public static final Duration PATIENCE = Duration.ofSeconds(60);

  private Runs() {}

  public static RunView awaitStatus(RunService runs, String runId, RunStatus status) {
    return awaitView(runs, runId, view -> view.status() == status);
  }

  public static RunView awaitView(RunService runs, String runId, Predicate<RunView> condition) {
    return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
        .until(() -> runs.view(runId), condition);
  }

  /** The run's user task with this definition key, once it is there. */
  public static Task awaitTask(ProcessEngine engine, String runId, String taskKey) {
    return await().atMost(PATIENCE).until(() -> engine.getTaskService().createTaskQuery().processInstanceId(runId)
        .taskDefinitionKey(taskKey).singleResult(), task -> task != null);
  }

  public static List<StepKind> kinds(List<Step> steps) {
    return steps.stream().map(Step::kind).toList();
  }

  /**
   * Submits a review task's form as Tasklist does: as {@code reviewer}, a member of the group the task is offered
   * to, with the fields going to the task's own variables.
   */
  public static void submitForm(ProcessEngine engine, Task task, String reviewer, Map<String, Object> fields) {
    engine.getIdentityService().setAuthentication(reviewer, List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(task.getId(), Variables.fromMap(fields));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }
}
