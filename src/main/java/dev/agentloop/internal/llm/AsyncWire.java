package dev.agentloop.internal.llm;

import dev.agentloop.internal.async.Cancellations;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
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
    return new WireClientBuilder(timeout);
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

  /**
   * One call of {@code model} whose answer is streamed: as {@link #call(Supplier)}, but the request asks for a stream
   * ({@link ReplyStream#ask}), a {@code text/event-stream} answer is read event by event as it arrives and the model
   * reads the reply the stream amounts to ({@link ReplyStream#reply}). An answer that is no stream (an error, a
   * proxy's page, an endpoint that ignores the ask and sends one JSON body) is read as {@link #call(Supplier)} reads
   * it. The time-out covers the whole answer, not only its start.
   */
  public <T> CompletableFuture<T> call(Supplier<T> model, ReplyStream stream) {
    java.net.http.HttpRequest request;
    try {
      HttpRequest written = ErrorKeepingHttpClient.capture(model);
      request = toJdk(written, stream.ask(written.body()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<HttpResponse<String>> exchange;
    try {
      exchange = client.sendAsync(request, info -> JdkHttp.isStream(info) ? new EventStreamSubscriber(stream)
          : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Void> deadline = new CompletableFuture<Void>().orTimeout(timeout.toMillis(),
        TimeUnit.MILLISECONDS);
    deadline.whenComplete((done, late) -> exchange.cancel(true));
    return Cancellations.passedBack(exchange.handleAsync((response, error) -> {
      deadline.complete(null);
      Throwable failure = error != null && deadline.isCompletedExceptionally()
          ? new HttpTimeoutException("no whole answer within " + timeout) : error;
      if (response == null) {
        return read(model, null, null, null, failure, answers);
      }
      answers.answered(response.statusCode(), response.headers().map());
      // the stream is read: what the model reads is the one body it amounts to
      Map<String, List<String>> headers = new java.util.HashMap<>(response.headers().map());
      if (JdkHttp.isStream(response.statusCode(), response.headers())) {
        headers.keySet().removeIf(name -> name.equalsIgnoreCase("Content-Type"));
        headers.put("Content-Type", List.of("application/json"));
      }
      return read(model, response.statusCode(), headers, response.body(), failure, Answers.NONE);
    }, replies), exchange);
  }

  private <T> T read(Supplier<T> model, HttpResponse<byte[]> response, Throwable error) {
    return read(model, response == null ? null : response.statusCode(),
        response == null ? null : response.headers().map(),
        response == null ? null : new String(response.body(), StandardCharsets.UTF_8), error, answers);
  }

  private <T> T read(Supplier<T> model, Integer status, Map<String, List<String>> headers, String body,
      Throwable error, Answers told) {
    if (error != null) {
      return ErrorKeepingHttpClient.replay(model, null, JdkHttp.transportFailure(error));
    }
    told.answered(status, headers);
    SuccessfulHttpResponse answer;
    try {
      answer = ErrorKeepingHttpClient.checked(status, headers, body, repairs);
    } catch (RuntimeException notAReply) {
      return ErrorKeepingHttpClient.replay(model, null, notAReply);
    }
    return ErrorKeepingHttpClient.replay(model, answer, null);
  }

  private java.net.http.HttpRequest toJdk(HttpRequest request) {
    return toJdk(request, request.body());
  }

  private java.net.http.HttpRequest toJdk(HttpRequest request, String body) {
    return JdkHttp.request(request, body, timeout);
  }
}
