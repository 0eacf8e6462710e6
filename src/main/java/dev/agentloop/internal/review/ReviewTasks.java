package dev.agentloop.internal.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.agentloop.internal.trace.StaleHeadException;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.exception.NotFoundException;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.spin.json.SpinJsonNode;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * The open user tasks of a run for API clients: what Tasklist shows, and completing a task with the
 * same fields its form submits. Lists and objects are stored as Spin JSON, as Tasklist does.
 * Thread-safe.
 */
public class ReviewTasks {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ProcessEngine engine;

  public ReviewTasks(ProcessEngine engine) {
    this.engine = engine;
  }

  public List<ReviewTaskView> open(String runId) {
    return engine.getTaskService().createTaskQuery().processInstanceId(runId).initializeFormKeys().list().stream()
        .map(this::view).toList();
  }

  /**
   * Completes a task of the run with form fields.
   *
   * @throws NotFoundException when the run has no such open task (it may belong to another run, or a
   *     timer may have closed it already)
   * @throws ReviewException when the fields cannot be used; the task stays open
   * @throws TaskDecidedException when another request completed the task, or changed the run, at the
   *     same moment; this completion changed nothing
   */
  public void complete(String runId, String taskId, Map<String, JsonNode> fields) {
    Task task = engine.getTaskService().createTaskQuery().taskId(taskId).processInstanceId(runId).singleResult();
    if (task == null) {
      throw new NotFoundException("run " + runId + " has no open task " + taskId
          + "; it may belong to another run or be done already");
    }
    VariableMap variables = Variables.createVariables();
    fields.forEach((name, value) -> variables.put(name, value.isContainerNode()
        ? SpinValues.jsonValue(value.toString()).create() : JSON.convertValue(value, Object.class)));
    try {
      engine.getFormService().submitTaskForm(taskId, variables);
    } catch (RuntimeException e) {
      throw whyNotCompleted(runId, taskId, e);
    }
  }

  /**
   * {@link #complete} for the client of the run where its diagram lets callers answer, though the task is offered to
   * others: the engine's check of the task's rights is left out, the task's review still decides (and records the
   * current user as who answered). The caller checks that the current user is that client.
   */
  public void completeAsClient(String runId, String taskId, Map<String, JsonNode> fields) {
    ((org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(() -> {
          complete(runId, taskId, fields);
          return null;
        }));
  }

  /**
   * What to tell the caller when a completion failed. The engine wraps what a task listener throws,
   * and the review's own message is the one to show. When several requests complete one task at
   * once, the losers fail in many ways (the task or its instance vanished under them, even as a
   * NullPointerException inside Camunda; its rights went with it; an optimistic lock; a stale head):
   * what they share is that someone else's completion won, which is what they are told.
   */
  private RuntimeException whyNotCompleted(String runId, String taskId, RuntimeException failure) {
    // first: a task completed meanwhile has no fields left either, which must not read as a bad submission
    boolean gone = engine.getTaskService().createTaskQuery().taskId(taskId).count() == 0;
    if (gone || cause(failure, OptimisticLockingException.class).isPresent()
        || cause(failure, StaleHeadException.class).isPresent()) {
      return new TaskDecidedException("task " + taskId + " of run " + runId + " was already " + (gone ? "completed"
          : "changed") + " by another request at the same moment; that decision stands and this one changed"
          + " nothing: GET /api/runs/" + runId + " shows where the run is now", failure);
    }
    Optional<ReviewException> refusal = cause(failure, ReviewException.class);
    if (refusal.isPresent()) {
      return refusal.get();
    }
    Optional<FormFieldValidationException> invalid = cause(failure, FormFieldValidationException.class);
    if (invalid.isPresent()) {
      return new ReviewException(invalid.get().getMessage());
    }
    return failure;
  }

  private static <T extends Throwable> Optional<T> cause(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return Optional.of(type.cast(t));
      }
    }
    return Optional.empty();
  }

  private ReviewTaskView view(Task task) {
    Map<String, JsonNode> form = new LinkedHashMap<>();
    engine.getTaskService().getVariablesLocal(task.getId()).forEach((name, value) -> form.put(name, toJson(value)));
    JsonNode kind = form.remove(ReviewTask.KIND);
    return new ReviewTaskView(task.getId(), task.getTaskDefinitionKey(), task.getName(),
        kind == null ? null : kind.asText(), task.getAssignee(), task.getCreateTime().toInstant(), form);
  }

  private static JsonNode toJson(Object value) {
    try {
      return value instanceof SpinJsonNode json ? JSON.readTree(json.toString()) : JSON.valueToTree(value);
    } catch (Exception e) {
      return JSON.getNodeFactory().textNode(String.valueOf(value));
    }
  }
}
