package dev.agentloop.internal.async;

import dev.failsafe.FailsafeException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What a failed future or guarded call really failed with: the one unwrapping of AgentLoop. */
public final class AsyncFailures {

  private AsyncFailures() {}

  /**
   * The error inside the wrappers that futures and Failsafe put around it: {@code CompletionException},
   * {@code ExecutionException} and Failsafe's plain {@code FailsafeException} (which wraps a checked
   * exception), however deep; the error itself when it is none of them or has no cause.
   */
  public static Throwable unwrap(Throwable error) {
    Throwable failure = error;
    while (failure.getCause() != null && failure.getCause() != failure
        && (failure instanceof CompletionException || failure instanceof ExecutionException
            || failure.getClass() == FailsafeException.class)) {
      failure = failure.getCause();
    }
    return failure;
  }
}
