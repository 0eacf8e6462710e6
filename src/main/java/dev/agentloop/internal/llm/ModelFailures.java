package dev.agentloop.internal.llm;

import dev.agentloop.spi.ModelCallException;
import java.time.Duration;

/**
 * What every adapter does with a failed call once it has classified it: a message of bounded length
 * that never carries the API key (a cause that mentions it is left out, since it would reach the
 * incident's details in Cockpit), and the look-ups of a cause chain the classifications share.
 */
public final class ModelFailures {

  private static final int MAX_MESSAGE = 400;

  private ModelFailures() {}

  /** The failure to report; {@code retryAfter} may be {@code null}. */
  public static ModelCallException failure(String message, String apiKey, boolean retryable, int status,
      Duration retryAfter, RuntimeException cause) {
    String brief = message == null ? "(no message)"
        : message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "…" : message;
    if (apiKey == null || apiKey.isBlank() || !mentions(cause, apiKey)) {
      return new ModelCallException(brief, retryable, status, retryAfter, cause);
    }
    return new ModelCallException(brief.replace(apiKey, "***"), retryable, status, retryAfter, null);
  }

  /** The first throwable of this type in the cause chain, or {@code null}. */
  public static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  /** The message of the chain's root cause, or its type where it has none. */
  public static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private static boolean mentions(Throwable error, String secret) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(secret)) {
        return true;
      }
    }
    return false;
  }
}
