package dev.agentloop.llm;

/**
 * A model call that failed as a whole: the endpoint was unreachable, refused, answered with an
 * error status, timed out or sent something that is not a chat completion.
 */
public class ModelCallException extends RuntimeException {

  private final boolean retryable;
  private final int httpStatus;

  /**
   * @param retryable whether the same call may succeed later (timeouts, 429, 5xx, I/O)
   * @param httpStatus the HTTP status, or 0 when there was none
   */
  public ModelCallException(String message, boolean retryable, int httpStatus, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
    this.httpStatus = httpStatus;
  }

  public boolean isRetryable() {
    return retryable;
  }

  public int httpStatus() {
    return httpStatus;
  }
}
