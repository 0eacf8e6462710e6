package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.run.ConversationInUseException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What a message to an agent means, as A2A's multi-turn rules say: with a {@code taskId} it answers that task's
 * questions (where the diagram lets callers answer and the caller started the run); with a {@code contextId} of a
 * conversation waiting for its next question it is the next turn, and in a context whose runs have ended it starts
 * a new run there; with neither it starts a run in a new context. Everything else is refused in words, and nothing
 * is changed then. Thread-safe.
 */
final class A2aMessages {

  /** A context id AgentLoop keeps as a run's conversation id. */
  private static final String CONTEXT_ID = "[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}";
  private static final int MAX_TEXT_CHARS = 100_000;

  private final RunService runs;
  private final Conversations conversations;
  private final ReviewTasks reviews;
  private final RunAccess access;
  private final A2aTasks tasks;

  A2aMessages(RunService runs, Conversations conversations, ReviewTasks reviews, RunAccess access, A2aTasks tasks) {
    this.runs = runs;
    this.conversations = conversations;
    this.reviews = reviews;
    this.access = access;
    this.tasks = tasks;
  }

  /** Takes the message of a {@code SendMessage} request; returns the task it started, continued or answered. */
  TaskRef send(String agent, JsonNode params) {
    JsonNode message = params.path("message");
    if (!message.isObject()) {
      throw invalid("params.message is required: the message to the agent");
    }
    if (!A2aProtocol.ROLE_USER.equals(message.path("role").asText())) {
      throw invalid("params.message.role must be " + A2aProtocol.ROLE_USER + ": the caller speaks as the user");
    }
    if (message.path("messageId").asText().isBlank()) {
      throw invalid("params.message.messageId is required");
    }
    String text = text(message.path("parts"));
    String taskId = optional(message, "taskId");
    String contextId = optional(message, "contextId");
    if (taskId != null) {
      return answer(agent, taskId, contextId, text);
    }
    return contextId == null ? start(agent, text, UUID.randomUUID().toString()) : next(agent, contextId, text);
  }

  /** The run of a task the caller may read, of this agent; else TaskNotFoundError, saying nothing about others' runs. */
  RunView readable(String agent, TaskRef ref) {
    try {
      RunView view = runs.view(ref.runId());
      if (access.mayRead(ref.runId()) && agent.equals(view.agent()) && A2aTasks.turnOf(view, ref.turn()) != null) {
        return view;
      }
    } catch (UnknownRunException e) {
      // as for a run the caller may not read
    }
    throw new JsonRpcException(A2aProtocol.TASK_NOT_FOUND, "agent " + agent + " has no task " + ref.id() + " you may read");
  }

  private TaskRef answer(String agent, String taskId, String contextId, String text) {
    TaskRef ref = TaskRef.parse(taskId).orElseThrow(() -> new JsonRpcException(A2aProtocol.TASK_NOT_FOUND,
        "agent " + agent + " has no task " + abbreviate(taskId)));
    RunView view = readable(agent, ref);
    if (contextId != null && !contextId.equals(A2aTasks.contextOf(view))) {
      throw invalid("contextId " + abbreviate(contextId) + " is not the context of task " + ref.id());
    }
    TaskState state = A2aTasks.state(view, ref.turn());
    if (state != TaskState.INPUT_REQUIRED) {
      throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "task " + ref.id() + " is " + state.wire()
          + (state.terminal() ? " and takes no more messages; send a new message with its contextId for a follow-up"
              : ": the agent is working on it, ask for it again with GetTask"));
    }
    A2aTasks.Wait wait = tasks.waitOf(view);
    if (wait.taskId() == null) {
      throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "task " + ref.id() + " waits for the agent's"
          + " reviewers (" + String.join(", ", wait.waitingFor()) + "); reviews stay with them");
    }
    if (!wait.callersMayAnswer() || !access.startedRun(ref.runId())) {
      throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "the agent's questions of task " + ref.id()
          + " are for its people" + (wait.callersMayAnswer() ? " and for who started the run" : ": its diagram does"
          + " not let callers answer them (agentloop.callersMayAnswer on its ask-human task)"));
    }
    reviews.completeAsClient(ref.runId(), wait.taskId(), answers(text, wait.questions().size()));
    return ref;
  }

  /** One line per question when the lines are as many as the questions, else the whole text answers the first. */
  private static Map<String, JsonNode> answers(String text, int questions) {
    List<String> lines = text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    for (int i = 1; i <= Math.max(1, questions); i++) {
      String answer = lines.size() == questions && questions > 1 ? lines.get(i - 1) : i == 1 ? text.strip() : "";
      fields.put("answer" + i, TextNode.valueOf(answer));
    }
    return fields;
  }

  private TaskRef next(String agent, String contextId, String text) {
    if (!contextId.matches(CONTEXT_ID)) {
      throw invalid("contextId must be 1 to 100 letters, digits or . _ : @ - characters, starting with a letter or"
          + " digit");
    }
    Optional<String> latest = runs.runsOfConversation(contextId).stream().findFirst();
    if (latest.isEmpty()) {
      return start(agent, text, contextId);
    }
    String runId = latest.get();
    RunView view = runs.view(runId);
    if (!access.mayRead(runId) || !agent.equals(view.agent())) {
      throw invalid("contextId " + contextId + " is taken: use the contextId of one of your own tasks of agent " + agent
          + ", or none for a new context");
    }
    if (view.status().isFinished()) {
      return start(agent, text, contextId);
    }
    if (!runs.waitsForFollowUp(runId)) {
      throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "context " + contextId + " has a task in"
          + " progress (" + new TaskRef(runId, view.turns().size()).id() + "); answer it with its taskId, or wait for"
          + " it to end");
    }
    conversations.ask(runId, text, access.currentUser());
    return new TaskRef(runId, view.turns().size() + 1);
  }

  private TaskRef start(String agent, String text, String contextId) {
    try {
      return new TaskRef(runs.start(agent, text, contextId), 1);
    } catch (ConversationInUseException e) {
      throw invalid("contextId " + contextId + " has a task in progress; answer it with its taskId, or wait for it");
    }
  }

  /** The message's text: its text parts; a part of any other kind is refused, as AgentLoop's agents read text. */
  private static String text(JsonNode parts) {
    if (!parts.isArray() || parts.isEmpty()) {
      throw invalid("params.message.parts must hold at least one part");
    }
    List<String> texts = new ArrayList<>();
    for (JsonNode part : parts) {
      if (!part.path("text").isTextual()) {
        throw new JsonRpcException(A2aProtocol.CONTENT_TYPE_NOT_SUPPORTED, "AgentLoop's agents read text: send"
            + " text parts only (no data, url or raw parts)");
      }
      texts.add(part.get("text").asText());
    }
    String text = String.join("\n", texts).strip();
    if (text.isEmpty() || text.length() > MAX_TEXT_CHARS || text.indexOf('\0') >= 0) {
      throw invalid("the message's text must be 1 to " + MAX_TEXT_CHARS + " characters without NUL");
    }
    return text;
  }

  private static String optional(JsonNode message, String field) {
    JsonNode value = message.path(field);
    if (value.isMissingNode() || value.isNull() || value.isTextual() && value.asText().isEmpty()) {
      return null;
    }
    if (!value.isTextual()) {
      throw invalid("params.message." + field + " must be a string");
    }
    return value.asText();
  }

  static JsonRpcException invalid(String message) {
    return new JsonRpcException(A2aProtocol.INVALID_PARAMS, message);
  }

  static String abbreviate(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "…";
  }
}
