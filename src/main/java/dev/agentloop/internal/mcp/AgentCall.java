package dev.agentloop.internal.mcp;

import dev.agentloop.api.RunView;
import dev.agentloop.internal.events.RunEvent;
import dev.agentloop.internal.events.RunEventSink;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * One tool call following its run: each event of the run becomes a progress notification (where the client asked
 * for progress with a token), a wait for people names the tasks; the call is done when the run ended, or, in a
 * conversation, when its turn answered and the run waits for the next question.
 */
final class AgentCall implements RunEventSink {

  /** How the call's run came out: ended, its turn answered, or neither (the following ended first). */
  enum Outcome { ENDED, TURN_ANSWERED, UNFINISHED }

  private final String runId;
  private final McpAsyncServerExchange exchange;
  private final Object progressToken;
  private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
  private int progress;
  /** The notifications sent so far, one after the other: the transport would otherwise reorder them. */
  private Mono<Void> sent = Mono.empty();
  private String answer;

  AgentCall(String runId, McpAsyncServerExchange exchange, Object progressToken) {
    this.runId = runId;
    this.exchange = exchange;
    this.progressToken = progressToken;
  }

  CompletableFuture<Outcome> outcome() {
    return outcome;
  }

  String runId() {
    return runId;
  }

  @Override
  public void send(RunEvent event) {
    if (event instanceof RunEvent.StepAppended step) {
      progress("step " + step.id() + ": " + step.kind().name().toLowerCase().replace('_', ' '));
    } else if (event instanceof RunEvent.Waiting waiting) {
      waiting(waiting);
    } else if (event instanceof RunEvent.Resumed) {
      progress("resumed: the run goes on");
    } else if (event instanceof RunEvent.Failed failed) {
      progress("the run has an incident (" + failed.incident() + "); it goes on when an operator retries it");
    } else if (event instanceof RunEvent.Answer answered) {
      answer = answered.text();
    } else if (event instanceof RunEvent.Ended) {
      outcome.complete(Outcome.ENDED);
    }
  }

  private void waiting(RunEvent.Waiting waiting) {
    if (waiting.waitingFor().equals(List.of(RunView.FOLLOW_UP)) && answer != null) {
      outcome.complete(Outcome.TURN_ANSWERED);
      return;
    }
    String tasks = waiting.tasks().stream()
        .map(task -> (task.name() == null ? task.key() : task.name()) + " (" + task.key() + ", task " + task.taskId()
            + ")")
        .collect(Collectors.joining(", "));
    progress("waiting for a person: " + (tasks.isEmpty() ? String.join(", ", waiting.waitingFor()) : tasks)
        + " — in Tasklist, or POST /api/runs/" + runId + "/tasks/{taskId}/complete");
  }

  private synchronized void progress(String message) {
    if (progressToken == null) {
      return;
    }
    progress++;
    // a client that went away loses its progress, not its run
    Mono<Void> next = exchange.progressNotification(
        new McpSchema.ProgressNotification(progressToken, progress, null, message)).onErrorResume(failed -> Mono.empty());
    sent = sent.then(next).cache();
    sent.subscribe();
  }

  @Override
  public void closed(Throwable failure) {
    outcome.complete(Outcome.UNFINISHED);
  }
}
