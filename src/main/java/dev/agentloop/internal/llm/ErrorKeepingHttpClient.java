package dev.agentloop.internal.llm;

import dev.agentloop.internal.llm.limits.RateLimitHeaders;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * LangChain4j's side of a model call that {@link AsyncWire} carries: the HTTP client a LangChain4j chat model is
 * built with, which never sends anything itself. A call runs the model twice on the calling thread: first this
 * client takes the request the model wrote ({@link #capture}), then, once the answer came, it hands the model
 * that answer to read ({@link #replay}). So LangChain4j maps both ways exactly as with its own clients, and no
 * thread waits for the provider in between.
 *
 * <p>An answer is not taken at its status's word ({@link #checked}): an error answer keeps its headers
 * ({@link ErrorResponse}, LangChain4j's {@link HttpException} has only status and body, and AgentLoop needs the
 * endpoint's {@code Retry-After}); a body that is an error ({@code {"error": ...}}, as some gateways send with
 * HTTP 200) is one too; an HTML page or an event stream where a JSON reply belongs is {@link NotAReply}. Other
 * successful bodies pass through the wire's repairs first. Thread-safe.
 */
public final class ErrorKeepingHttpClient implements HttpClient {

  /** An error answer of the endpoint: status, body and headers; the status may be a 2xx one. */
  public static final class ErrorResponse extends HttpException {

    private final transient Map<String, List<String>> headers;

    ErrorResponse(int status, String body, Map<String, List<String>> headers) {
      super(status, body);
      this.headers = headers;
    }

    /** Whether the endpoint sent its error with a successful status. */
    public boolean inSuccess() {
      return statusCode() >= 200 && statusCode() <= 299;
    }

    /**
     * The wait the endpoint's {@code Retry-After} (delay-seconds or an HTTP date) or {@code retry-after-ms} asks
     * for; {@code null} when absent or unreadable, zero for a date in the past.
     */
    public Duration retryAfter(Instant now) {
      return RateLimitHeaders.retryAfter(headers, now);
    }

    /** The first value of a header, whatever the case of its name; {@code null} when absent. */
    public String header(String name) {
      return RateLimitHeaders.header(headers, name);
    }
  }

  /** A successful answer that is no reply of the API; says in words what came instead. */
  public static class NotAReply extends RuntimeException {

    private final boolean retryable;

    public NotAReply(String message, boolean retryable) {
      super(message);
      this.retryable = retryable;
    }

    /** Whether asking again may get a reply. */
    public boolean retryable() {
      return retryable;
    }
  }

  /**
   * The endpoint answered a request that asked for one reply with an event stream
   * ({@code text/event-stream}); asking again would get the same.
   */
  public static final class StreamedAnswer extends NotAReply {

    StreamedAnswer(String contentType) {
      super("the endpoint answered with an event stream (" + contentType + ") although the request asked for no"
          + " stream; configure it (or the proxy in front of it) to answer non-streaming requests with one JSON body",
          false);
    }
  }

  /** Thrown at the model to stop it once its request is taken: nothing is sent, nothing to trace. */
  private static final RuntimeException TAKEN = new RuntimeException("request taken", null, false, false) { };
  private static final ThreadLocal<Exchange> EXCHANGE = new ThreadLocal<>();

  /** The one exchange a model's call on this thread is in: the request it wrote, or the answer it reads. */
  private static final class Exchange {

    HttpRequest request;
    final SuccessfulHttpResponse answer;
    final RuntimeException failure;

    Exchange(SuccessfulHttpResponse answer, RuntimeException failure) {
      this.answer = answer;
      this.failure = failure;
    }
  }

  static final ErrorKeepingHttpClient INSTANCE = new ErrorKeepingHttpClient();

  private ErrorKeepingHttpClient() {}

  /**
   * Runs the model until it sends, and returns the request it wrote; what the model throws before that (a
   * request it refuses to write) is thrown as it is.
   */
  static HttpRequest capture(Supplier<?> model) {
    Exchange exchange = new Exchange(null, null);
    EXCHANGE.set(exchange);
    try {
      model.get();
    } catch (RuntimeException e) {
      if (exchange.request == null) {
        throw e;
      }
    } finally {
      EXCHANGE.remove();
    }
    if (exchange.request == null) {
      throw new IllegalStateException("the model answered without sending a request");
    }
    return exchange.request;
  }

  /** Runs the model again, which now reads {@code answer}, or fails as if its client had thrown {@code failure}. */
  static <T> T replay(Supplier<T> model, SuccessfulHttpResponse answer, RuntimeException failure) {
    EXCHANGE.set(new Exchange(answer, failure));
    try {
      return model.get();
    } finally {
      EXCHANGE.remove();
    }
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    Exchange exchange = EXCHANGE.get();
    if (exchange == null) {
      throw new IllegalStateException("AgentLoop's model client sends nothing outside AsyncWire.call");
    }
    if (exchange.answer == null && exchange.failure == null) {
      exchange.request = request;
      throw TAKEN;
    }
    if (exchange.failure != null) {
      throw exchange.failure;
    }
    return exchange.answer;
  }

  /** AgentLoop asks for no stream. */
  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    throw new UnsupportedOperationException("AgentLoop's model calls ask for no stream");
  }

  /**
   * The answer as the model may read it, or what it is instead: an {@link ErrorResponse} for an error status or
   * an error body, a {@link NotAReply} for an HTML page or an event stream.
   *
   * @param answers the wire's repairs and checks of a successful body
   */
  static SuccessfulHttpResponse checked(int status, Map<String, List<String>> headers, String body,
      UnaryOperator<String> answers) {
    if (status < 200 || status > 299 || ErrorBodies.errorInstead(body) != null) {
      throw new ErrorResponse(status, body, headers);
    }
    String contentType = RateLimitHeaders.header(headers, "Content-Type");
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    String start = body.stripLeading();
    if (type.startsWith("text/event-stream") || start.startsWith("data:") || start.startsWith("event:")) {
      throw new StreamedAnswer(type.isBlank() ? "data: lines" : contentType);
    }
    if (start.startsWith("<") && (type.startsWith("text/html") || startsWithIgnoreCase(start, "<!doctype html")
        || startsWithIgnoreCase(start, "<html"))) {
      String title = ErrorBodies.summary(body);
      throw new NotAReply("the endpoint answered with an HTML page, not the API: a proxy or sign-in page?"
          + (title.isEmpty() ? "" : " (the page says: " + title + ")") + " Check agentloop.llm.base-url and the"
          + " proxy between AgentLoop and the provider", false);
    }
    return SuccessfulHttpResponse.builder().statusCode(status).headers(headers).body(answers.apply(body)).build();
  }

  private static boolean startsWithIgnoreCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }
}
