package dev.agentloop.internal.llm;

import dev.agentloop.internal.async.Cancellations;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Carries a LangChain4j chat model's calls over the JDK's asynchronous HTTP client, so that no thread waits for
 * the provider: a thousand calls under way cost a thousand sockets, not a thousand threads. LangChain4j writes
 * the request and reads the reply, exactly as with its own clients ({@link ErrorKeepingHttpClient}); this class
 * sends. The time-out runs from the moment a request is sent, per request. Replies are read, and the caller's
 * continuations run, on the given executor (AgentLoop's model threads, with the application's class loader),
 * never on the HTTP client's or the JDK's common pool. Cancelling a call's future aborts its exchange.
 *
 * <p>Every answer, a successful one too, is shown to a {@link Answers listener} with its status and headers:
 * that is how the provider's {@code Retry-After} and rate-limit headers reach the endpoint's queue.
 * Thread-safe.
 */
public final class AsyncWire {

  /** Told of every answer's status and headers. */
  @FunctionalInterface
  public interface Answers {

    Answers NONE = (status, headers) -> { };

    void answered(int status, Map<String, List<String>> headers);
  }

  private final java.net.http.HttpClient client;
  private final Duration timeout;
  private final Executor replies;
  private final UnaryOperator<String> repairs;
  private final Answers answers;

  /**
   * @param timeout how long one request may take from being sent to its whole answer; also the connect time-out
   * @param replies where answers are read and the caller's continuations run
   * @param repairs the wire's repairs and checks of a successful body, before LangChain4j reads it
   * @param answers told of every answer's status and headers
   */
  public AsyncWire(Duration timeout, Executor replies, UnaryOperator<String> repairs, Answers answers) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.replies = Objects.requireNonNull(replies, "replies");
    this.repairs = Objects.requireNonNull(repairs, "repairs");
    this.answers = Objects.requireNonNull(answers, "answers");
    this.client = java.net.http.HttpClient.newBuilder().connectTimeout(timeout).executor(replies).build();
  }

  /** For the LangChain4j model's builder: the client that hands this wire the model's requests. */
  public HttpClientBuilder clientBuilder() {
    return new HttpClientBuilder() {
      @Override
      public Duration connectTimeout() {
        return timeout;
      }

      @Override
      public HttpClientBuilder connectTimeout(Duration ignored) {
        return this;
      }

      @Override
      public Duration readTimeout() {
        return timeout;
      }

      @Override
      public HttpClientBuilder readTimeout(Duration ignored) {
        return this;
      }

      @Override
      public HttpClient build() {
        return ErrorKeepingHttpClient.INSTANCE;
      }
    };
  }

  /**
   * One call of {@code model} (a LangChain4j model's {@code chat}, built with {@link #clientBuilder}): writes its
   * request on this thread, sends it, and completes with what the model reads from the answer, or with what it
   * throws (LangChain4j's exceptions, or {@link ErrorKeepingHttpClient}'s for an answer that is no reply).
   */
  public <T> CompletableFuture<T> call(Supplier<T> model) {
    HttpRequest request;
    try {
      request = ErrorKeepingHttpClient.capture(model);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<HttpResponse<byte[]>> exchange;
    try {
      exchange = client.sendAsync(toJdk(request), HttpResponse.BodyHandlers.ofByteArray());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return Cancellations.passedBack(exchange.handleAsync((response, error) -> read(model, response, error), replies),
        exchange);
  }

  private <T> T read(Supplier<T> model, HttpResponse<byte[]> response, Throwable error) {
    if (error != null) {
      return ErrorKeepingHttpClient.replay(model, null, transportFailure(error));
    }
    answers.answered(response.statusCode(), response.headers().map());
    SuccessfulHttpResponse answer;
    try {
      answer = ErrorKeepingHttpClient.checked(response.statusCode(), response.headers().map(),
          new String(response.body(), StandardCharsets.UTF_8), repairs);
    } catch (RuntimeException notAReply) {
      return ErrorKeepingHttpClient.replay(model, null, notAReply);
    }
    return ErrorKeepingHttpClient.replay(model, answer, null);
  }

  /** What the model's own client would have thrown: a time-out as LangChain4j's, I/O errors wrapped. */
  private static RuntimeException transportFailure(Throwable error) {
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

  private java.net.http.HttpRequest toJdk(HttpRequest request) {
    java.net.http.HttpRequest.Builder jdk = java.net.http.HttpRequest.newBuilder(URI.create(request.url()))
        .method(request.method().name(), request.body() == null
            ? java.net.http.HttpRequest.BodyPublishers.noBody()
            : java.net.http.HttpRequest.BodyPublishers.ofString(request.body()))
        .timeout(timeout);
    request.headers().forEach((name, values) -> values.forEach(value -> jdk.header(name, value)));
    return jdk.build();
  }
}
