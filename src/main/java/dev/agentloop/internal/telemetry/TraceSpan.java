package dev.agentloop.internal.telemetry;

import java.util.List;

/**
 * A span being made, in AgentLoop's own terms: the beans of this package name no tracing library's types, so that
 * a host without Micrometer Tracing (an optional dependency) can load them ({@link MicrometerSpans} alone names them).
 */
interface TraceSpan {

  TraceSpan tag(String key, String value);

  TraceSpan tag(String key, long value);

  TraceSpan tag(String key, double value);

  TraceSpan tag(String key, List<String> values);

  /** Marks the span failed with this cause. */
  TraceSpan error(Throwable cause);

  void end();

  /** Where the span is, for its children and for storing with the run. */
  RunTrace position(String agent);
}
