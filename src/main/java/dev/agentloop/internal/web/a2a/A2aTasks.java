package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.review.ReviewTaskView;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;

/**
 * An A2A task as a turn of a run stands: its state from the turn and the run ({@link #state}), its answer as the
 * artifact {@code answer}, and while the run waits for people a status message that says for whom, with the agent's
 * questions when it asked some and whether the caller may answer them ({@link Wait}). The caller's right to read the
 * run is checked before; what is read here (the run's open tasks, its diagram) is read for it. Thread-safe.
 */
final class A2aTasks {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ProcessEngine engine;
  private final RunService runs;
  private final ReviewTasks reviews;
  private final AgentDefinitions definitions;

  A2aTasks(ProcessEngine engine, RunService runs, ReviewTasks reviews, AgentDefinitions definitions) {
    this.engine = engine;
    this.runs = runs;
    this.reviews = reviews;
    this.definitions = definitions;
  }

  /** The turn of the run, or {@code null} when the run has none of that number. */
  static ConversationTurn turnOf(RunView view, int turn) {
    return turn <= view.turns().size() ? view.turns().get(turn - 1) : null;
  }

  /** The state of a task, from how its turn and its run stand. */
  static TaskState state(RunView view, int turn) {
    ConversationTurn of = turnOf(view, turn);
    if (of != null && of.status() == ConversationTurn.Status.ANSWERED) {
      return TaskState.COMPLETED;
    }
    return switch (view.status()) {
      case RUNNING, FAILED -> TaskState.WORKING;
      case WAITING -> view.waitingFor().contains(RunView.FOLLOW_UP) ? TaskState.CANCELED : TaskState.INPUT_REQUIRED;
      case ANSWERED -> of != null && of.status() == ConversationTurn.Status.UNANSWERED ? TaskState.CANCELED
          : TaskState.COMPLETED;
      case REJECTED -> TaskState.REJECTED;
      case STOPPED, CANCELLED -> TaskState.CANCELED;
    };
  }

  /** The task object of A2A, with at most {@code historyLength} messages of history ({@code null}: all). */
  ObjectNode task(TaskRef ref, RunView view, Integer historyLength) {
    TaskState state = state(view, ref.turn());
    ConversationTurn turn = turnOf(view, ref.turn());
    ObjectNode task = JSON.createObjectNode().put("id", ref.id()).put("contextId", contextOf(view));
    task.set("status", status(ref, view, state));
    if (state == TaskState.COMPLETED) {
      String answer = turn != null && turn.answer() != null ? turn.answer() : view.finalAnswer();
      task.putArray("artifacts").add(answer(answer == null ? "" : answer));
    }
    if (historyLength == null || historyLength > 0) {
      ArrayNode history = task.putArray("history");
      if (turn != null) {
        history.add(message(A2aProtocol.ROLE_USER, ref, view, turn.question()));
      }
    }
    task.putObject("metadata").put("runId", view.id()).put("turn", ref.turn()).put("agent", view.agent());
    return task;
  }

  /** The status of the task: its state, when it came to it, and what the caller should know about it. */
  ObjectNode status(TaskRef ref, RunView view, TaskState state) {
    ObjectNode status = JSON.createObjectNode().put("state", state.wire()).put("timestamp", since(view).toString());
    String words = switch (state) {
      case WORKING -> view.status() == RunStatus.FAILED
          ? "The run has an incident that an operator retries in Cockpit: " + view.incident() : null;
      case INPUT_REQUIRED -> null;
      case COMPLETED -> null;
      default -> view.statusReason() == null ? "The run ended " + view.status() : view.statusReason();
    };
    if (state == TaskState.INPUT_REQUIRED) {
      Wait wait = waitOf(view);
      ObjectNode message = message(A2aProtocol.ROLE_AGENT, ref, view, wait.text());
      ObjectNode metadata = message.putObject("metadata");
      wait.waitingFor().forEach(metadata.putArray("waitingFor")::add);
      wait.questions().forEach(metadata.putArray("questions")::add);
      metadata.put("callersMayAnswer", wait.callersMayAnswer());
      status.set("message", message);
    } else if (words != null) {
      status.set("message", message(A2aProtocol.ROLE_AGENT, ref, view, words));
    }
    return status;
  }

  /**
   * Whom a waiting run waits for.
   *
   * @param taskId the open ask-human task when the agent asked questions, else {@code null}
   */
  record Wait(List<String> waitingFor, String taskId, List<String> questions, boolean callersMayAnswer, String text) {}

  /** Whom the run waits for now: its open tasks, read for the caller, who may not be offered them. */
  Wait waitOf(RunView view) {
    List<ReviewTaskView> open = unchecked(() -> reviews.open(view.id()));
    List<String> keys = open.stream().map(ReviewTaskView::taskDefinitionKey).toList();
    ReviewTaskView ask = open.stream().filter(task -> ReviewKind.ASK_HUMAN.value().equals(task.kind())).findFirst()
        .orElse(null);
    if (ask == null) {
      String names = String.join(", ", open.stream().map(task -> task.name() + " (" + task.taskDefinitionKey() + ")")
          .toList());
      return new Wait(keys, null, List.of(), false, "The run waits for a person: " + (names.isEmpty() ? "a review"
          : names) + ". Reviews stay with the agent's reviewers; this task goes on when they have decided.");
    }
    List<String> questions = new ArrayList<>();
    for (int i = 1; ask.form().containsKey("question" + i); i++) {
      questions.add(ask.form().get("question" + i).asText());
    }
    boolean may = unchecked(() -> definitions.callersMayAnswer(definitionOf(view.id())));
    StringBuilder text = new StringBuilder("The agent asks:");
    for (int i = 0; i < questions.size(); i++) {
      text.append('\n').append(i + 1).append(". ").append(questions.get(i));
    }
    text.append(may ? "\nAnswer in your next message on this task: one line per question, in their order (or one"
        + " answer for all)." : "\nThe agent's people answer it (the question is offered to them in Tasklist); this"
        + " task goes on then.");
    return new Wait(keys, ask.id(), questions, may, text.toString());
  }

  private String definitionOf(String runId) {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(runId).singleResult()
        .getProcessDefinitionId();
  }

  private static ObjectNode answer(String text) {
    ObjectNode artifact = JSON.createObjectNode().put("artifactId", "answer").put("name", "answer");
    artifact.putArray("parts").addObject().put("text", text).put("mediaType", "text/plain");
    return artifact;
  }

  private static ObjectNode message(String role, TaskRef ref, RunView view, String text) {
    ObjectNode message = JSON.createObjectNode().put("messageId", ref.id() + ":" + role.toLowerCase() + ":"
        + Math.abs(text.hashCode())).put("contextId", contextOf(view)).put("taskId", ref.id()).put("role", role);
    message.putArray("parts").addObject().put("text", text);
    return message;
  }

  static String contextOf(RunView view) {
    return view.conversationId() == null ? "" : view.conversationId();
  }

  private static Instant since(RunView view) {
    if (view.endedAt() != null) {
      return view.endedAt();
    }
    return view.activeStep() != null && view.activeStep().since() != null ? view.activeStep().since()
        : view.createdAt();
  }

  /** Reads what the caller's own rights would hide: whom the run waits for is the caller's to know. */
  private <T> T unchecked(Supplier<T> read) {
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired()
        .execute(context -> context.runWithoutAuthorization(read::get));
  }
}
