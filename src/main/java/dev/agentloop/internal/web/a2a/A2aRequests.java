package dev.agentloop.internal.web.a2a;

import static dev.agentloop.internal.web.a2a.JsonRpcResponses.asJsonRpc;
import static dev.agentloop.internal.web.a2a.JsonRpcResponses.error;
import static dev.agentloop.internal.web.a2a.JsonRpcResponses.ok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.EventCursor;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.events.TooManyFollowersException;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.camunda.bpm.engine.AuthorizationException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The methods of A2A's JSON-RPC binding that AgentLoop offers — {@code SendMessage} (which waits for the task to
 * settle, up to {@code agentloop.a2a.max-wait}, unless told to return at once), {@code SendStreamingMessage},
 * {@code GetTask}, {@code CancelTask} (which stops the run) and {@code SubscribeToTask} — and a JSON-RPC error in
 * words for every other request. Each answer is a JSON-RPC response, or for the streaming methods a stream of them.
 * Thread-safe.
 */
final class A2aRequests {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RunService runs;
  private final ResumeService resume;
  private final RunEvents events;
  private final A2aMessages messages;
  private final A2aTasks tasks;
  private final TaskWatch watch;
  private final Duration maxWait;

  A2aRequests(RunService runs, ResumeService resume, RunEvents events, A2aMessages messages, A2aTasks tasks,
      Duration maxWait) {
    this.runs = runs;
    this.resume = resume;
    this.events = events;
    this.messages = messages;
    this.tasks = tasks;
    this.watch = new TaskWatch(events, runs);
    this.maxWait = maxWait;
  }

  /** The answer to a request: a JSON-RPC response, or an {@link SseEmitter} of them. */
  CompletableFuture<Object> handle(String agent, String method, JsonNode params, Object id, String user) {
    try {
      return switch (method) {
        case A2aProtocol.SEND_MESSAGE -> send(agent, params, id);
        case A2aProtocol.SEND_STREAMING_MESSAGE -> stream(messages.send(agent, params), id, history(params));
        case A2aProtocol.GET_TASK -> {
          TaskRef ref = ref(agent, params);
          yield done(ok(id, tasks.task(ref, messages.readable(agent, ref), historyLength(params))));
        }
        case A2aProtocol.CANCEL_TASK -> cancel(agent, params, id, user);
        case "SubscribeToTask" -> subscribe(agent, params, id);
        case "ListTasks" -> throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "AgentLoop does not list"
            + " tasks over A2A: GET /api/runs?conversationId=<contextId> lists a context's runs");
        case "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
            "DeleteTaskPushNotificationConfig" -> throw new JsonRpcException(
                A2aProtocol.PUSH_NOTIFICATION_NOT_SUPPORTED, "AgentLoop sends no push notifications: stream the task"
                + " (SubscribeToTask) or ask for it (GetTask)");
        case "GetExtendedAgentCard" -> throw new JsonRpcException(-32007, "AgentLoop's agents have no extended card");
        default -> throw new JsonRpcException(A2aProtocol.METHOD_NOT_FOUND, "there is no method '"
            + A2aMessages.abbreviate(method) + "' in A2A " + A2aProtocol.VERSION + "'s JSON-RPC binding");
      };
    } catch (RuntimeException e) {
      return done(error(id, asJsonRpc(e)));
    }
  }

  private CompletableFuture<Object> send(String agent, JsonNode params, Object id) {
    TaskRef ref = messages.send(agent, params);
    RunView now = runs.view(ref.runId());
    Integer history = history(params);
    CompletableFuture<RunView> settled = params.path("configuration").path("returnImmediately").asBoolean(false)
        ? CompletableFuture.completedFuture(now) : watch.settled(ref, now, maxWait);
    return settled.thenApply(view -> {
      ObjectNode result = JSON.createObjectNode();
      result.set("task", tasks.task(ref, view, history));
      return ok(id, result);
    });
  }

  private CompletableFuture<Object> cancel(String agent, JsonNode params, Object id, String user) {
    TaskRef ref = ref(agent, params);
    RunView view = messages.readable(agent, ref);
    TaskState state = A2aTasks.state(view, ref.turn());
    if (state.terminal()) {
      throw new JsonRpcException(A2aProtocol.TASK_NOT_CANCELABLE, "task " + ref.id() + " is " + state.wire()
          + " already");
    }
    try {
      resume.cancel(ref.runId(), "cancelled by " + user + " over A2A", user);
    } catch (AuthorizationException e) {
      throw new JsonRpcException(A2aProtocol.TASK_NOT_CANCELABLE, "task " + ref.id() + " is for who started its run,"
          + " agent-operators, and reviewers while it waits on their task to cancel");
    } catch (ResumeConflictException e) {
      throw new JsonRpcException(A2aProtocol.TASK_NOT_CANCELABLE, e.getMessage());
    }
    return done(ok(id, tasks.task(ref, runs.view(ref.runId()), historyLength(params))));
  }

  private CompletableFuture<Object> subscribe(String agent, JsonNode params, Object id) {
    TaskRef ref = ref(agent, params);
    TaskState state = A2aTasks.state(messages.readable(agent, ref), ref.turn());
    if (state.terminal()) {
      throw new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "task " + ref.id() + " is " + state.wire()
          + ": there is nothing to subscribe to; GetTask reads it");
    }
    return stream(ref, id, null);
  }

  private CompletableFuture<Object> stream(TaskRef ref, Object id, Integer history) {
    SseEmitter emitter = new SseEmitter(0L);
    A2aStream stream = new A2aStream(emitter, id, ref, runs, tasks);
    RunView view = runs.view(ref.runId());
    try {
      if (!stream.begin(view, history)) {
        emitter.onCompletion(stream::end);
        emitter.onTimeout(stream::end);
        emitter.onError(error -> stream.end());
        events.follow(ref.runId(), new EventCursor(view.steps(), "N"), stream);
      }
    } catch (IOException | TooManyFollowersException e) {
      emitter.completeWithError(e);
    }
    // the emitter itself, not in a ResponseEntity: only so does Spring MVC stream an asynchronous result
    return done(emitter);
  }

  private static TaskRef ref(String agent, JsonNode params) {
    JsonNode id = params.path("id");
    if (!id.isTextual()) {
      throw A2aMessages.invalid("params.id is required: the task's id");
    }
    return TaskRef.parse(id.asText()).orElseThrow(() -> new JsonRpcException(A2aProtocol.TASK_NOT_FOUND,
        "agent " + agent + " has no task " + A2aMessages.abbreviate(id.asText())));
  }

  private static Integer history(JsonNode params) {
    return historyLength(params.path("configuration"));
  }

  private static Integer historyLength(JsonNode holder) {
    JsonNode length = holder.path("historyLength");
    if (length.isMissingNode() || length.isNull()) {
      return null;
    }
    if (!length.isIntegralNumber() || length.asInt() < 0) {
      throw A2aMessages.invalid("historyLength must be a whole number of at least 0");
    }
    return length.asInt();
  }

  private static CompletableFuture<Object> done(Object value) {
    return CompletableFuture.completedFuture(value);
  }
}
