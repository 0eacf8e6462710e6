package dev.agentloop.internal.telemetry;

import dev.agentloop.spi.ModelCallException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

/**
 * The {@code error.type} of a failed model call, few values as the conventions ask: the provider's HTTP status
 * ({@code 429}, {@code 500} …) where it answered with one, {@code timeout} where the call ran out of time, else the
 * failure's class name. docs/observability.md lists them with the tool calls' values.
 */
final class ErrorTypes {

  static final String TIMEOUT = "timeout";

  private ErrorTypes() {}

  static String of(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
      if (cause instanceof ModelCallException call && call.httpStatus() > 0) {
        return String.valueOf(call.httpStatus());
      }
      if (cause instanceof TimeoutException || cause instanceof HttpTimeoutException
          || cause instanceof java.net.SocketTimeoutException) {
        return TIMEOUT;
      }
    }
    return failure.getClass().getName();
  }
}
