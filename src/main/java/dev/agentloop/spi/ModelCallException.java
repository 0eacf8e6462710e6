package dev.agentloop.spi;

import java.time.Duration;

/**
 * A model call that failed as a whole: the endpoint was unreachable, refused, answered with an
 * error status, timed out or sent something that is not a chat completion.
 */
public class ModelCallException extends RuntimeException {

  private final boolean retryable;
  private final int httpStatus;
  private final Duration retryAfter;

  /**
   * @param retryable whether the same call may succeed later (timeouts, 429, 5xx, I/O)
   * @param httpStatus the HTTP status, or 0 when there was none
   */
  public ModelCallException(String message, boolean retryable, int httpStatus, Throwable cause) {
    this(message, retryable, httpStatus, null, cause);
  }

  /**
   * @param retryAfter how long the endpoint asked callers to wait ({@code Retry-After}), or {@code null}
   */
  public ModelCallException(String message, boolean retryable, int httpStatus, Duration retryAfter,
      Throwable cause) {
    super(message, cause);
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative, was " + retryAfter);
    }
    this.retryable = retryable;
    this.httpStatus = httpStatus;
    this.retryAfter = retryAfter;
  }

  public boolean isRetryable() {
    return retryable;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** How long the endpoint asked callers to wait before the next call; {@code null} when it did not say. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
