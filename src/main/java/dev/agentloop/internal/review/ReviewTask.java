package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.trace.StoredText;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;

/**
 * A review's user task as the reviews see it: the run it belongs to, who is acting, and its
 * task-local form data. The forms use plain fields only (numbered where there are several items):
 * Tasklist 7.24 keeps a form whose dynamic list was edited invalid, so its Complete button stays off.
 */
class ReviewTask {

  /** Task-local variable naming the review kind, so API clients know which fields to send. */
  static final String KIND = "kind";
  /** Task-local variable: the task's name, for the form's heading. */
  static final String TITLE = "title";
  static final String SUBJECT = ReactAgentProcess.SUBJECT.name();
  private static final int SUBJECT_CHARS = 80;
  /** Camunda keeps a task's name in a column of 255 characters. */
  private static final int NAME_CHARS = 255;
  /** Of the subject of a child run's task, what the caller's question may take. */
  private static final int CALLER_CHARS = 32;

  /** Camunda stores string variables in a column of 4,000 characters. */
  static final int SHOWN_CHARS = 4000;
  /** Room for the note that says where the text was cut and where to read all of it. */
  private static final int CUT_NOTE = 200;

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
    task.setVariableLocal(name, value instanceof String text ? StoredText.of(text) : value);
  }

  /**
   * A text the form only shows, cut to what a Camunda string variable holds (4,000 characters);
   * {@code keepEnd} keeps its end rather than its beginning, e.g. of a long list of steps.
   */
  void putShown(String name, String text, boolean keepEnd) {
    if (text.length() <= SHOWN_CHARS) {
      put(name, text);
      return;
    }
    // reviewers may read the whole trace through the REST API with their Tasklist account
    String cut = "[… " + (text.length() - SHOWN_CHARS + CUT_NOTE) + " characters cut here. All of it: GET /api/runs/"
        + runId() + "/trace]";
    put(name, keepEnd ? cut + "\n" + text.substring(text.length() - SHOWN_CHARS + CUT_NOTE)
        : text.substring(0, SHOWN_CHARS - CUT_NOTE) + "\n" + cut);
  }

  /**
   * What tells this task from the others in Tasklist: its name as the diagram gives it ({@value #TITLE},
   * the heading of every form), the run's question cut to one line of 80 characters ({@code subject}, also a
   * column of the filter "Agent reviews"), and the task's name made of both. The run of an agent that another agent called starts with the
   * caller's question in brackets, so that a reviewer sees which conversation the task serves.
   */
  void putHeading() {
    String title = Objects.requireNonNullElse(task.getName(), task.getTaskDefinitionKey());
    put(TITLE, title);
    String question = oneLine(ReactAgentProcess.QUESTION.get(task.getExecution()));
    String caller = callersQuestion();
    String subject = cut(caller.isEmpty() ? question : "[" + cut(caller, CALLER_CHARS) + "] " + question, SUBJECT_CHARS);
    put(SUBJECT, subject);
    // the task's name carries the question: Tasklist shows names whole in its list, and its search by name finds
    // a run's tasks by a word of their question
    task.setName(cut(subject.isEmpty() ? title : title + ": " + subject, NAME_CHARS));
  }

  /** Which agent and version the run is on, for the form: {@code support-agent, version 2}. */
  void putAgentVersion() {
    ProcessDefinitionEntity definition = ((ExecutionEntity) task.getExecution()).getProcessDefinition();
    put(Reviews.AGENT_VERSION, agentVersion(definition.getKey(), definition.getVersion()));
  }

  static String agentVersion(String agentKey, int version) {
    return agentKey + ", version " + version;
  }

  /** The question of the agent whose call started this run, or empty (a top-level run, or a business process). */
  private String callersQuestion() {
    ExecutionEntity caller = ((ExecutionEntity) task.getExecution()).getProcessInstance().getSuperExecution();
    return caller == null ? "" : oneLine(ReactAgentProcess.QUESTION.get(caller.getProcessInstance()));
  }

  private static String oneLine(String text) {
    return Objects.requireNonNullElse(text, "").strip().replaceAll("\\s+", " ");
  }

  private static String cut(String text, int chars) {
    return text.length() > chars ? text.substring(0, chars - 1) + "…" : text;
  }

  /** Whether the task has a value for this field (a form field, or a field an API client sent). */
  boolean hasValue(String name) {
    return task.getVariableLocal(name) != null;
  }

  /** A field's value as submitted, typed as Tasklist or the API sent it; {@code null} when empty. */
  Object value(String name) {
    return task.getVariableLocal(name);
  }

  String text(String name) {
    Object value = task.getVariableLocal(name);
    return value == null ? "" : value.toString().strip();
  }

  /** The decision field, one of the task's choices: the form's values are the choices' names in lower case. */
  <E extends Enum<E>> E decision(Class<E> choices) {
    String decision = text("decision");
    for (E choice : choices.getEnumConstants()) {
      if (value(choice).equalsIgnoreCase(decision)) {
        return choice;
      }
    }
    String choicesText = Arrays.stream(choices.getEnumConstants()).map(ReviewTask::value).collect(Collectors.joining(", "));
    throw new ReviewException(decision.isEmpty() ? "choose a decision (decision): one of " + choicesText
        : "'" + decision + "' is not a decision of this task; choose one of " + choicesText);
  }

  /** A decision as forms and gateways name it. */
  static String value(Enum<?> decision) {
    return decision.name().toLowerCase(Locale.ROOT);
  }
}
