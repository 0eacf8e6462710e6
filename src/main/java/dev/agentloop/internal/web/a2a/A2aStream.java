package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvent;
import dev.agentloop.internal.events.RunEventSink;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import dev.agentloop.internal.trace.StepKind;
import java.io.IOException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A task's events as A2A streams them (section 3.1.2): the task first, then a status update at each change of its
 * state and at each tool call of the agent, the answer as an artifact update, and the stream closes when the task
 * ended. Every event is a JSON-RPC response to the request, as the JSON-RPC binding asks. Called by one thread at a
 * time ({@link RunEventSink}).
 */
final class A2aStream implements RunEventSink {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SseEmitter emitter;
  private final Object requestId;
  private final TaskRef ref;
  private final RunService runs;
  private final A2aTasks tasks;
  private TaskState last;

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

  @Override
  public void send(RunEvent event) throws IOException {
    if (event instanceof RunEvent.TextDelta) {
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
      emitter.complete();
    }
  }

  @Override
  public void keepAlive() throws IOException {
    emitter.send(SseEmitter.event().comment("keep-alive"));
  }

  @Override
  public void closed(Throwable failure) {
    emitter.complete();
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
