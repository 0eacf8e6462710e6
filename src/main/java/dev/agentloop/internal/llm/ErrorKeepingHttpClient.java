package dev.agentloop.internal.llm;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * LangChain4j's HTTP client for the chat calls, on the JDK's client like LangChain4j's own, except
 * that an error answer keeps its headers: LangChain4j's {@link HttpException} has only the status
 * and the body, and AgentLoop needs the endpoint's {@code Retry-After}. Streaming and multipart
 * requests, which AgentLoop does not make, go to LangChain4j's client.
 *
 * <p>A successful status is not taken at its word: a body that is an error ({@code {"error": ...}}, as
 * some gateways send with HTTP 200) is an {@link ErrorResponse}, so that the endpoint's own message is
 * reported; an event stream sent to a request that asked for none is a {@link StreamedAnswer}. Other
 * successful bodies pass through the adapter's {@link Builder#answers repair} first. Thread-safe.
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
     * The wait the endpoint's {@code Retry-After} header asks for: delay-seconds or an HTTP date;
     * {@code null} when absent or unreadable, zero for a date in the past.
     */
    public Duration retryAfter(Instant now) {
      String header = header("Retry-After");
      if (header == null || header.isBlank()) {
        return null;
      }
      String value = header.strip();
      if (value.chars().allMatch(Character::isDigit)) {
        try {
          return Duration.ofSeconds(Long.parseLong(value));
        } catch (NumberFormatException e) {
          return null;
        }
      }
      try {
        Duration wait = Duration.between(now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME));
        return wait.isNegative() ? Duration.ZERO : wait;
      } catch (DateTimeParseException e) {
        return null;
      }
    }

    /** The first value of a header, whatever the case of its name; {@code null} when absent. */
    public String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
          .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }
  }

  /**
   * The endpoint answered a request that asked for one reply with an event stream
   * ({@code text/event-stream}); asking again would get the same.
   */
  public static final class StreamedAnswer extends RuntimeException {

    StreamedAnswer(String contentType) {
      super("the endpoint answered with an event stream (" + contentType + ") although the request asked for no"
          + " stream; configure it (or the proxy in front of it) to answer non-streaming requests with one JSON body");
    }
  }

  private final java.net.http.HttpClient client;
  private final Duration readTimeout;
  private final HttpClient others;
  private final UnaryOperator<String> answers;

  private ErrorKeepingHttpClient(Builder builder) {
    java.net.http.HttpClient.Builder jdk = java.net.http.HttpClient.newBuilder();
    if (builder.connectTimeout != null) {
      jdk.connectTimeout(builder.connectTimeout);
    }
    this.client = jdk.build();
    this.readTimeout = builder.readTimeout;
    this.answers = builder.answers;
    // LangChain4j's JDK client, named rather than looked up: beside LangChain4j's Spring Boot starter the class path
    // has a second client (Spring's RestClient), and the lookup then fails the start with "Conflict: multiple HTTP
    // clients have been found in the classpath"
    this.others = new JdkHttpClientBuilder().connectTimeout(builder.connectTimeout)
        .readTimeout(builder.readTimeout).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    if (hasEntries(request.formDataFields()) || hasEntries(request.formDataFiles())) {
      return others.execute(request);
    }
    java.net.http.HttpRequest.Builder jdk = java.net.http.HttpRequest.newBuilder(URI.create(request.url()))
        .method(request.method().name(), request.body() == null
            ? java.net.http.HttpRequest.BodyPublishers.noBody()
            : java.net.http.HttpRequest.BodyPublishers.ofString(request.body()));
    request.headers().forEach((name, values) -> values.forEach(value -> jdk.header(name, value)));
    if (readTimeout != null) {
      jdk.timeout(readTimeout);
    }
    try {
      HttpResponse<byte[]> response = client.send(jdk.build(), HttpResponse.BodyHandlers.ofByteArray());
      String body = new String(response.body(), StandardCharsets.UTF_8);
      if (response.statusCode() < 200 || response.statusCode() > 299 || ErrorBodies.errorInstead(body) != null) {
        throw new ErrorResponse(response.statusCode(), body, response.headers().map());
      }
      String contentType = response.headers().firstValue("Content-Type").orElse("");
      if (contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream") || isEventStream(body)) {
        throw new StreamedAnswer(contentType.isBlank() ? "data: lines" : contentType);
      }
      return SuccessfulHttpResponse.builder().statusCode(response.statusCode()).headers(response.headers().map())
          .body(answers.apply(body)).build();
    } catch (HttpTimeoutException e) {
      throw new TimeoutException(e);
    } catch (IOException e) {
      throw new RuntimeException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RuntimeException(e);
    }
  }

  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    others.execute(request, parser, listener);
  }

  private static boolean isEventStream(String body) {
    String start = body.stripLeading();
    return start.startsWith("data:") || start.startsWith("event:");
  }

  private static boolean hasEntries(Map<?, ?> map) {
    return map != null && !map.isEmpty();
  }

  /** Takes the time-outs LangChain4j's OpenAI client sets. */
  public static final class Builder implements HttpClientBuilder {

    private Duration connectTimeout;
    private Duration readTimeout;
    private UnaryOperator<String> answers = UnaryOperator.identity();

    /** Repairs a successful answer's body before LangChain4j reads it, where its wire is known to vary. */
    public Builder answers(UnaryOperator<String> repair) {
      this.answers = java.util.Objects.requireNonNull(repair, "repair");
      return this;
    }

    @Override
    public Duration connectTimeout() {
      return connectTimeout;
    }

    @Override
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    @Override
    public Duration readTimeout() {
      return readTimeout;
    }

    @Override
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = timeout;
      return this;
    }

    @Override
    public HttpClient build() {
      return new ErrorKeepingHttpClient(this);
    }
  }
}
