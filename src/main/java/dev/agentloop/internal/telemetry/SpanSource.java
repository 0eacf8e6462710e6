package dev.agentloop.internal.telemetry;

import java.time.Instant;

/** Makes {@link TraceSpan}s with the host's tracer. Thread-safe. */
interface SpanSource {

  /**
   * A run's {@code invoke_agent} span: a child of the calling run's span, else of the span current on this thread, if
   * any.
   */
  TraceSpan startRun(String name, RunTrace caller);

  /**
   * A span in a run's trace: a child of {@code parent}, or of the run's own span when {@code parent} is null.
   *
   * @param client whether the span is a call of a remote service (a model), else internal
   * @param startedAt when it started, null: now
   */
  TraceSpan start(RunTrace run, TraceSpan parent, String name, boolean client, Instant startedAt);
}
