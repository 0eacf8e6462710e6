package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvent;
import dev.agentloop.internal.events.RunEventSink;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A task's events as A2A streams them (section 3.1.2): the task first, then a status update at each change of its
 * state and at each tool call of the agent, the answer as an artifact update, and the stream closes when the task
 * ended. Every event is a JSON-RPC response to the request, as the JSON-RPC binding asks. Called by one thread at a
 * time ({@link RunEventSink}); a call after the stream is over throws, which ends the following.
 */
final class A2aStream implements RunEventSink {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SseEmitter emitter;
  private final Object requestId;
  private final TaskRef ref;
  private final RunService runs;
  private final A2aTasks tasks;
  private TaskState last;
  /** Set when the stream is over (the task ended, the client went away): the next call ends the following. */
  private volatile boolean over;

  A2aStream(SseEmitter emitter, Object requestId, TaskRef ref, RunService runs, A2aTasks tasks) {
    this.emitter = emitter;
    this.requestId = requestId;
    this.ref = ref;
    this.runs = runs;
    this.tasks = tasks;
  }

  /** The first event: the task as it stands; whether it has ended already (then the stream is complete). */
  boolean begin(RunView view, Integer historyLength) throws IOException {
    last = A2aTasks.state(view, ref.turn());
    send(wrap("task", tasks.task(ref, view, historyLength)));
    if (last.terminal()) {
      emitter.complete();
      return true;
    }
    return false;
  }

  /**
   * The stream is over. Called from the emitter's callbacks, which hold the response's lock: it only marks the
   * stream, and the following ends at its next event or keep-alive, on its own thread (closing it here, under that
   * lock, while the following sends under its own, would deadlock).
   */
  void end() {
    over = true;
  }

  @Override
  public void send(RunEvent event) throws IOException {
    requireOpen();
    if (event instanceof RunEvent.TextDelta || event instanceof RunEvent.TextDropped) {
      return;
    }
    if (event instanceof RunEvent.StepAppended step) {
      if (step.kind() == StepKind.ACTION) {
        RunView view = runs.view(ref.runId());
        ObjectNode status = tasks.status(ref, view, TaskState.WORKING);
        ObjectNode message = status.putObject("message").put("messageId", ref.id() + ":step:" + step.id())
            .put("role", "ROLE_AGENT").put("taskId", ref.id()).put("contextId", A2aTasks.contextOf(view));
        message.putArray("parts").addObject().put("text", "calling " + step.content().path("tool").asText());
        send(statusUpdate(view, status));
      }
      return;
    }
    RunView view = runs.view(ref.runId());
    TaskState state = A2aTasks.state(view, ref.turn());
    if (state == last) {
      return;
    }
    last = state;
    if (state == TaskState.COMPLETED) {
      ObjectNode update = JSON.createObjectNode().put("taskId", ref.id()).put("contextId", A2aTasks.contextOf(view))
          .put("lastChunk", true);
      update.set("artifact", tasks.task(ref, view, 0).path("artifacts").path(0));
      send(wrap("artifactUpdate", update));
    }
    send(statusUpdate(view, tasks.status(ref, view, state)));
    if (state.terminal()) {
      over = true;
      emitter.complete();
      throw new IOException("the task has ended");
    }
  }

  @Override
  public void keepAlive() throws IOException {
    requireOpen();
    emitter.send(SseEmitter.event().comment("keep-alive"));
  }

  @Override
  public void closed(Throwable failure) {
    emitter.complete();
  }

  private void requireOpen() throws IOException {
    if (over) {
      throw new IOException("the stream is over");
    }
  }

  private ObjectNode statusUpdate(RunView view, ObjectNode status) {
    ObjectNode update = JSON.createObjectNode().put("taskId", ref.id()).put("contextId", A2aTasks.contextOf(view));
    update.set("status", status);
    return wrap("statusUpdate", update);
  }

  private ObjectNode wrap(String kind, ObjectNode payload) {
    ObjectNode result = JSON.createObjectNode();
    result.set(kind, payload);
    return result;
  }

  private void send(ObjectNode result) throws IOException {
    ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
    response.set("id", JSON.valueToTree(requestId));
    response.set("result", result);
    emitter.send(SseEmitter.event().data(response.toString()));
  }
}
