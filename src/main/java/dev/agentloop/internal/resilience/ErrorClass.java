package dev.agentloop.internal.resilience;

/** What a failed call's error says about calling again. */
enum ErrorClass {
  /** May pass when the same call is made again: time-outs, rate limits, 5xx, I/O. Retried. */
  TRANSIENT,
  /** Will fail again the same way: bad input, 4xx, a tool's own message for the model. Not retried. */
  PERSISTENT,
  /** Neither is known; {@code agentloop.resilience.unknown-errors} decides. */
  UNKNOWN;

  /** The tag value in metrics: {@code transient}, {@code persistent}, {@code unknown}. */
  String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
