package dev.agentloop.internal.events;

import java.io.IOException;

/**
 * Where a run's events go: an SSE response, an MCP call's progress, an A2A stream. Called by one thread at a time
 * per follower, in the order of the events. A call that throws ends the following (the client went away).
 */
public interface RunEventSink {

  /** Sends one event. */
  void send(RunEvent event) throws IOException;

  /**
   * Nothing happened for a while ({@code agentloop.events.keep-alive}): a stream sends a comment so that proxies
   * keep it open and a client that went away is noticed.
   */
  default void keepAlive() throws IOException {}

  /**
   * The following ended: after {@link RunEvent.Ended}, after its longest time ({@code agentloop.events.max-duration},
   * the client resumes from its last event), closed by its owner, or because sending failed ({@code failure}).
   * Called once.
   *
   * @param failure why, or {@code null} when it ended as planned
   */
  default void closed(Throwable failure) {}
}
