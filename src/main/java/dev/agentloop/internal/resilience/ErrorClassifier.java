package dev.agentloop.internal.resilience;

import com.fasterxml.jackson.core.JacksonException;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.resilience.ResilienceSettings.UnknownErrors;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ToolException;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.TimeoutExceededException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Classifies the error of a failed model or tool call as {@link ErrorClass#TRANSIENT transient},
 * {@link ErrorClass#PERSISTENT persistent} or {@link ErrorClass#UNKNOWN unknown}, in this order:
 * <ol>
 *   <li>a message matching a configured persistent pattern, then a transient pattern;
 *   <li>an HTTP status: 408, 425, 429 and 5xx are transient, other 4xx persistent;
 *   <li>the type: time-outs and I/O errors are transient; a {@link ToolException} (a message written
 *       for the model), bad arguments, unreadable data and an open circuit breaker are persistent;
 *   <li>anything else is unknown, which counts as configured ({@code unknown-errors}).
 * </ol>
 * Wrappers ({@code CompletionException}, {@code ExecutionException}, Failsafe's) are looked through
 * ({@link AsyncFailures#unwrap}).
 * Thread-safe (immutable).
 */
class ErrorClassifier {

  private final List<Pattern> transientPatterns;
  private final List<Pattern> persistentPatterns;
  private final UnknownErrors unknownErrors;

  /**
   * @throws IllegalArgumentException naming the pattern when one is no valid regular expression
   */
  ErrorClassifier(List<String> transientPatterns, List<String> persistentPatterns, UnknownErrors unknownErrors) {
    this.transientPatterns = compile(transientPatterns, "transient-patterns");
    this.persistentPatterns = compile(persistentPatterns, "persistent-patterns");
    this.unknownErrors = Objects.requireNonNull(unknownErrors, "unknownErrors");
  }

  ErrorClass classify(Throwable error) {
    Throwable failure = AsyncFailures.unwrap(error);
    String messages = messages(failure);
    if (persistentPatterns.stream().anyMatch(p -> p.matcher(messages).find())) {
      return ErrorClass.PERSISTENT;
    }
    if (transientPatterns.stream().anyMatch(p -> p.matcher(messages).find())) {
      return ErrorClass.TRANSIENT;
    }
    if (failure instanceof ModelCallException model) {
      return model.httpStatus() > 0 ? ofStatus(model.httpStatus())
          : model.isRetryable() ? ErrorClass.TRANSIENT : ErrorClass.PERSISTENT;
    }
    return ofType(failure);
  }

  /** Whether a call that failed with this error is made again: transient, or unknown when those count as transient. */
  boolean isRetryable(Throwable error) {
    ErrorClass errorClass = classify(error);
    return errorClass == ErrorClass.TRANSIENT
        || errorClass == ErrorClass.UNKNOWN && unknownErrors == UnknownErrors.TRANSIENT;
  }

  static ErrorClass ofStatus(int status) {
    if (status == 408 || status == 425 || status == 429 || status >= 500) {
      return ErrorClass.TRANSIENT;
    }
    return status >= 400 ? ErrorClass.PERSISTENT : ErrorClass.UNKNOWN;
  }

  private static ErrorClass ofType(Throwable failure) {
    if (failure instanceof CircuitBreakerOpenException || failure instanceof ToolException
        || failure instanceof IllegalArgumentException || failure instanceof UnsupportedOperationException
        || failure instanceof SecurityException || has(failure, JacksonException.class)) {
      return ErrorClass.PERSISTENT;
    }
    if (has(failure, TimeoutExceededException.class) || has(failure, TimeoutException.class)
        || has(failure, IOException.class) || has(failure, UncheckedIOException.class)) {
      return ErrorClass.TRANSIENT;
    }
    return ErrorClass.UNKNOWN;
  }

  private static boolean has(Throwable error, Class<? extends Throwable> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String messages(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null) {
        text.append(t.getMessage()).append('\n');
      }
    }
    return text.toString();
  }

  private static List<Pattern> compile(List<String> patterns, String setting) {
    return patterns.stream().map(pattern -> {
      try {
        return Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("agentloop.resilience." + setting + ": '" + pattern
            + "' is no regular expression: " + e.getDescription(), e);
      }
    }).toList();
  }
}
