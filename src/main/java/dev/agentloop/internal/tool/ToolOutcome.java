package dev.agentloop.internal.tool;

import java.util.Objects;

/**
 * What a tool call produced: a result, or a failure the model reads as an error observation.
 *
 * @param result the tool's output; {@code null} when it failed
 * @param failure why it failed; {@code null} when it succeeded
 */
public record ToolOutcome(String result, Failure failure) {

  /**
   * Kinds of failure; each becomes an error observation with its message. UNAVAILABLE: the tool was
   * not called because its circuit breaker is open. INPUT_REQUIRED: a remote agent asks for input before it goes on
   * ({@link RemoteInput}).
   */
  public enum FailureKind { UNKNOWN_TOOL, NOT_ALLOWED, INVALID_ARGUMENTS, TIMED_OUT, FAILED, UNAVAILABLE, INPUT_REQUIRED }

  public record Failure(FailureKind kind, String message) {
    public Failure {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(message, "message");
    }
  }

  public static ToolOutcome success(String result) {
    return new ToolOutcome(Objects.requireNonNull(result, "result"), null);
  }

  public static ToolOutcome failure(FailureKind kind, String message) {
    return new ToolOutcome(null, new Failure(kind, message));
  }

  public boolean failed() {
    return failure != null;
  }

  /** Whether the tool itself ran (and perhaps failed), as opposed to a call refused before it. */
  public boolean toolRan() {
    return failure == null || failure.kind() == FailureKind.TIMED_OUT || failure.kind() == FailureKind.FAILED
        || failure.kind() == FailureKind.INPUT_REQUIRED;
  }
}
