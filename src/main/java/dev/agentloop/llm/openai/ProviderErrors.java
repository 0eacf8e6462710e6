package dev.agentloop.llm.openai;

import dev.agentloop.llm.ModelCallException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** Turns what LangChain4j throws into a {@link ModelCallException} that says whether a retry may help. */
final class ProviderErrors {

  private ProviderErrors() {}

  static ModelCallException classify(String endpoint, RuntimeException error) {
    HttpException http = find(error, HttpException.class);
    if (http != null) {
      int status = http.statusCode();
      boolean retryable = status == 408 || status == 429 || status >= 500;
      return new ModelCallException(endpoint + " answered HTTP " + status + ": " + brief(http.getMessage()),
          retryable, status, error);
    }
    if (find(error, NonRetriableException.class) != null) {
      return new ModelCallException(endpoint + " refused the call: " + brief(error.getMessage()), false, 0, error);
    }
    if (find(error, IOException.class) != null || find(error, TimeoutException.class) != null
        || find(error, dev.langchain4j.exception.TimeoutException.class) != null) {
      return new ModelCallException(endpoint + " did not answer: " + brief(rootMessage(error)), true, 0, error);
    }
    // a body that is no chat completion: often a proxy's error page, so a later attempt may work
    return new ModelCallException(endpoint + " sent an unreadable answer: " + brief(rootMessage(error)), true, 0, error);
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private static String brief(String message) {
    if (message == null) {
      return "(no message)";
    }
    return message.length() > 300 ? message.substring(0, 300) + "…" : message;
  }
}
