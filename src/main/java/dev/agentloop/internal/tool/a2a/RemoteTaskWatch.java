package dev.agentloop.internal.tool.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;

/**
 * Follows a task that one remote agent has accepted until it ended or waits for input, within the call's deadline,
 * and cancels it on the peer past that: apart from {@link A2aAgentTool}, which says what to send and what the end
 * means to the model, because this is the pacing and the giving up. Thread-safe (immutable).
 */
final class RemoteTaskWatch {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration FIRST_POLL = Duration.ofMillis(50);
  /** How long a cancel of a task past its time-out may take: the runner gives the call one second more. */
  private static final Duration CANCEL_TIME = Duration.ofMillis(700);

  private final String name;
  private final A2aClient client;
  private final Duration pollInterval;
  private final Duration timeout;

  /**
   * @param pollInterval the longest pause between two looks at the task
   * @param timeout the call's, which the time-out's message names
   */
  RemoteTaskWatch(String name, A2aClient client, Duration pollInterval, Duration timeout) {
    this.name = name;
    this.client = client;
    this.pollInterval = pollInterval;
    this.timeout = timeout;
  }

  /**
   * Asks for the task again, sooner at first and at most every {@code poll-interval} later, until it has ended or
   * waits for input; past the deadline it is cancelled. Failsafe paces the looks, as it paces every retry here.
   */
  RemoteTask awaitEnd(RemoteCard remote, RemoteTask started, Instant deadline) throws Exception {
    Duration left = Duration.between(Instant.now(), deadline).minus(FIRST_POLL);
    if (left.isNegative() || left.isZero()) {
      throw timedOut(remote, started.id());
    }
    Duration longest = pollInterval.compareTo(FIRST_POLL) > 0 ? pollInterval : FIRST_POLL.plusMillis(1);
    RetryPolicy<RemoteTask> untilEnded = RetryPolicy.<RemoteTask>builder()
        // a task still at work is asked for again; a failed look is not (it ends the call, as the first one would)
        .handleIf((task, failure) -> failure == null && !task.ended())
        .withBackoff(FIRST_POLL, longest)
        .withMaxRetries(-1)
        .withMaxDuration(left)
        .build();
    RemoteTask task;
    try {
      task = Failsafe.with(untilEnded).get(() -> RemoteTask.of(
          client.call(remote.endpoint(), A2aProtocol.GET_TASK, idParams(started.id()), deadline), name));
    } catch (FailsafeException e) {
      if (e.getCause() instanceof TimeoutException) {
        throw timedOut(remote, started.id());
      }
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
    if (!task.ended()) {
      throw timedOut(remote, task.id());
    }
    return task;
  }

  /** Cancels the remote task, as far as that is possible in a moment, and says so. */
  TimeoutException timedOut(RemoteCard remote, String taskId) {
    String cancelled = "";
    if (!taskId.isEmpty()) {
      try {
        client.call(remote.endpoint(), A2aProtocol.CANCEL_TASK, idParams(taskId), Instant.now().plus(CANCEL_TIME));
        cancelled = "; its task " + taskId + " was cancelled";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        cancelled = "; cancelling its task " + taskId + " failed: " + e.getMessage();
      }
    }
    return new TimeoutException("remote agent '" + name + "' did not finish within " + timeout.toSeconds() + " s"
        + cancelled);
  }

  private static ObjectNode idParams(String taskId) {
    return JSON.createObjectNode().put("id", taskId);
  }
}
