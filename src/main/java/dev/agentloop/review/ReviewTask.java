package dev.agentloop.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.variable.value.TypedValue;
import org.camunda.spin.json.SpinJsonNode;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * A review's user task as the reviews see it: the run it belongs to, who is acting, and its
 * task-local form data. Lists and objects are stored as Spin JSON, which is what Tasklist's forms
 * read and send back.
 */
class ReviewTask {

  /** Task-local variable naming the review kind, so API clients know which fields to send. */
  static final String KIND = "kind";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DelegateTask task;

  ReviewTask(DelegateTask task) {
    this.task = task;
  }

  String runId() {
    return task.getProcessInstanceId();
  }

  String processDefinitionId() {
    return task.getProcessDefinitionId();
  }

  DelegateTask delegate() {
    return task;
  }

  /** The person completing the task: the authenticated user, else the assignee. */
  String actor() {
    String user = Context.getCommandContext() == null ? null : Context.getCommandContext().getAuthenticatedUserId();
    if (user == null) {
      user = task.getAssignee();
    }
    return user == null ? "unknown user" : user;
  }

  void put(String name, Object value) {
    task.setVariableLocal(name, value);
  }

  void putJson(String name, JsonNode value) {
    task.setVariableLocal(name, SpinValues.jsonValue(value.toString()).create());
  }

  String text(String name) {
    Object value = task.getVariableLocal(name);
    return value == null ? "" : value.toString().strip();
  }

  /** A decision field, checked against the choices of this task. */
  String decision(List<String> choices) {
    String decision = text("decision").toLowerCase(Locale.ROOT);
    if (!choices.contains(decision)) {
      throw new ReviewException("'" + text("decision") + "' is not a decision of this task; choose one of "
          + String.join(", ", choices));
    }
    return decision;
  }

  /** A list or object field, whether it came back as Spin JSON, JSON text, or Java collections. */
  JsonNode json(String name) {
    TypedValue typed = task.getVariableLocalTyped(name, true);
    Object value = typed == null ? null : typed.getValue();
    try {
      if (value == null) {
        return JSON.nullNode();
      }
      if (value instanceof String text) {
        return JSON.readTree(text);
      }
      if (value instanceof SpinJsonNode json) {
        return JSON.readTree(json.toString());
      }
      return JSON.valueToTree(value);
    } catch (Exception e) {
      throw new ReviewException("'" + name + "' is not valid JSON: " + e.getMessage());
    }
  }
}
