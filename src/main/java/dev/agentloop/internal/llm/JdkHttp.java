package dev.agentloop.internal.llm;

import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * Between LangChain4j's HTTP and the JDK's, for an {@link AsyncWire}: a request LangChain4j wrote as the JDK's,
 * a transport failure as LangChain4j's own client would have thrown it, and whether an answer is an event stream.
 */
final class JdkHttp {

  private JdkHttp() {
  }

  /** The request as the JDK's, with {@code body} instead of its own and {@code timeout} from being sent. */
  static java.net.http.HttpRequest request(HttpRequest request, String body, Duration timeout) {
    java.net.http.HttpRequest.Builder jdk = java.net.http.HttpRequest.newBuilder(URI.create(request.url()))
        .method(request.method().name(), body == null
            ? java.net.http.HttpRequest.BodyPublishers.noBody()
            : java.net.http.HttpRequest.BodyPublishers.ofString(body))
        .timeout(timeout);
    request.headers().forEach((name, values) -> values.forEach(value -> jdk.header(name, value)));
    return jdk.build();
  }

  /** What the model's own client would have thrown: a time-out as LangChain4j's, I/O errors wrapped. */
  static RuntimeException transportFailure(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof HttpTimeoutException timedOut) {
      return new TimeoutException(timedOut);
    }
    if (cause instanceof CancellationException cancelled) {
      return cancelled;
    }
    if (cause instanceof IOException io) {
      return new RuntimeException(io);
    }
    return cause instanceof RuntimeException runtime ? runtime : new RuntimeException(cause);
  }

  /** Whether the answer is a successful {@code text/event-stream}. */
  static boolean isStream(HttpResponse.ResponseInfo info) {
    return isStream(info.statusCode(), info.headers());
  }

  static boolean isStream(int status, HttpHeaders headers) {
    String type = headers.firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    return status >= 200 && status <= 299 && type.startsWith("text/event-stream");
  }
}
