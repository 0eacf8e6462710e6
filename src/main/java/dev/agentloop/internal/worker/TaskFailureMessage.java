package dev.agentloop.internal.worker;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.camunda.bpm.engine.ProcessEngineException;

/**
 * What a failed task reports to the engine, and so what its incident shows in Cockpit: the cause in words (the real
 * one where the engine's own message hides it), what happens next, and the stack trace. Apart from
 * {@link TaskCompleter}, which reports it, because the wording is a format of its own with its own limits.
 */
final class TaskFailureMessage {

  private static final int MAX_CAUSE = 540;

  private TaskFailureMessage() {
  }

  /** The engine keeps 666 characters of a failure's message; the cause gets most, what comes next the rest. */
  static String message(Throwable cause, int remaining, Duration backoff) {
    String what = describe(cause);
    if (what.length() > MAX_CAUSE) {
      what = what.substring(0, MAX_CAUSE) + "…";
    }
    return what + (remaining == 0
        ? " — no retries left: once the cause is fixed, an operator retries the incident (Cockpit)"
        : " — AgentLoop tries again in " + readable(backoff) + " (" + remaining + (remaining == 1 ? " retry" : " retries")
            + " left)");
  }

  /**
   * The failure's message, or for one without (an Error from a static initialiser), its type and its cause's. The
   * engine's own exceptions name the real cause too where their message does not ("An exception occurred in the
   * persistence layer" for a database that refused a value), so that an incident says what went wrong.
   */
  static String describe(Throwable failure) {
    String own = failure.getMessage();
    if (own != null && !own.isBlank()) {
      Throwable root = rootCause(failure);
      boolean hidden = failure instanceof ProcessEngineException && root != failure && root.getMessage() != null
          && !own.contains(root.getMessage());
      return hidden ? own + " — caused by " + root.getClass().getSimpleName() + ": " + root.getMessage() : own;
    }
    Throwable cause = failure.getCause();
    return failure.getClass().getSimpleName()
        + (cause == null || cause == failure ? "" : ": " + (cause.getMessage() == null
            ? describe(cause) : cause.getClass().getSimpleName() + ": " + cause.getMessage()));
  }

  /** The failure's stack trace, the incident's details. */
  static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  private static Throwable rootCause(Throwable failure) {
    Throwable root = failure;
    for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
      root = root.getCause();
    }
    return root;
  }

  private static String readable(Duration duration) {
    return duration.toMillis() % 1000 != 0 ? duration.toMillis() + " ms"
        : duration.toSeconds() < 120 ? duration.toSeconds() + " s" : duration.toMinutes() + " min";
  }
}
