package dev.agentloop.internal.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The transport every fake model endpoint shares, whatever wire it speaks: serves POST on one path on
 * 127.0.0.1 with a random port, answers with queued replies in order (then with its responder, if it
 * has one, else with the wire's "nothing queued" error) and records every request with its headers.
 * The wire's bodies are made by the wire's fake ({@code FakeOpenAiServer}, {@code FakeAnthropicServer}).
 */
public final class FakeModelServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A reply with this header (any value) is cut: its headers promise the whole body, half of it is sent and the
   * connection closed, as when a proxy or the network drops an answer midway. The header itself is not sent.
   */
  public static final String CUT = "x-fake-cut";

  /** One canned answer: status, body, how long to wait before sending it, extra headers (they win). */
  public record Reply(int status, String body, Duration delay, Map<String, String> headers) {

    public Reply {
      headers = Map.copyOf(headers);
    }
  }

  /** One request as received: its body as JSON (a text node when it is no JSON), headers by lower-case name. */
  public record Received(JsonNode body, Map<String, String> headers) {

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final HttpServer server;
  private final ExecutorService threads;
  private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
  private final List<Received> requests = new CopyOnWriteArrayList<>();
  private final List<Long> arrivals = new CopyOnWriteArrayList<>();
  private final Reply nothingQueued;
  private final UnaryOperator<String> streamed;
  private volatile Function<Received, Reply> responder;

  /**
   * @param nothingQueued what the server answers when no reply is queued and no responder set
   */
  public FakeModelServer(String path, String threadName, Reply nothingQueued) {
    this(path, threadName, nothingQueued, null);
  }

  /**
   * @param streamed the wire's event stream of a successful reply body, sent instead of the body when a request asks
   *     for a stream ({@code "stream": true}), as the real provider does, or {@code null} for a body it would not
   *     stream; {@code null}: never streams
   */
  public FakeModelServer(String path, String threadName, Reply nothingQueued, UnaryOperator<String> streamed) {
    this.nothingQueued = nothingQueued;
    this.streamed = streamed;
    this.threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(path, this::handle);
    server.setExecutor(threads);
    server.start();
  }

  public String origin() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public void queue(Reply reply) {
    replies.add(reply);
  }

  public void answerWith(Function<Received, Reply> responder) {
    this.responder = responder;
  }

  public List<Received> requests() {
    return new ArrayList<>(requests);
  }

  /** When each request arrived ({@link System#nanoTime}), in the order of {@link #requests}. */
  public List<Long> arrivals() {
    return new ArrayList<>(arrivals);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String raw;
      try (InputStream in = exchange.getRequestBody()) {
        raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Map<String, String> headers = new java.util.HashMap<>();
      exchange.getRequestHeaders().forEach((name, values) -> {
        if (!values.isEmpty()) {
          headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
        }
      });
      Received received = new Received(parse(raw), Map.copyOf(headers));
      synchronized (requests) {
        arrivals.add(System.nanoTime());
        requests.add(received);
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        send(exchange, new Reply(405, "{\"error\":{\"message\":\"method not allowed\"}}", Duration.ZERO, Map.of()));
        return;
      }
      Reply reply = replies.poll();
      Function<Received, Reply> answering = responder;
      if (reply == null && answering != null) {
        reply = answering.apply(received);
      }
      reply = reply == null ? nothingQueued : reply;
      if (!reply.delay().isZero()) {
        try {
          Thread.sleep(reply.delay().toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      send(exchange, streamedIfAsked(received, reply));
    } catch (CutOnPurpose e) {
      throw e;
    } catch (IOException e) {
      // the client gave up (timeout) before the answer went out
    }
  }

  /**
   * A reply as the provider sends it to a request that asked for a stream: a successful reply as its event stream;
   * errors, error bodies in a 200 (a gateway's), pages, canned streams and replies that name their own Content-Type
   * as they are.
   */
  private Reply streamedIfAsked(Received received, Reply reply) {
    boolean asked = received.body().path("stream").asBoolean(false);
    if (!asked || streamed == null || reply.status() < 200 || reply.status() > 299
        || !reply.body().startsWith("{") || ErrorBodies.errorInstead(reply.body()) != null
        || reply.headers().keySet().stream().anyMatch(name -> name.equalsIgnoreCase("Content-Type"))) {
      return reply;
    }
    String stream = streamed.apply(reply.body());
    return stream == null ? reply : new Reply(reply.status(), stream, reply.delay(), reply.headers());
  }

  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    String body = reply.body();
    exchange.getResponseHeaders().set("Content-Type", body.startsWith("{") ? "application/json"
        : body.startsWith("data:") || body.startsWith("event:") || body.startsWith(":") ? "text/event-stream"
        : "text/html");
    boolean cut = reply.headers().containsKey(CUT);
    reply.headers().forEach((name, value) -> {
      if (!name.equals(CUT)) {
        exchange.getResponseHeaders().set(name, value);
      }
    });
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    if (cut) {
      exchange.getResponseBody().write(bytes, 0, bytes.length / 2);
      exchange.getResponseBody().flush();
      throw new CutOnPurpose();
    }
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static JsonNode parse(String raw) {
    try {
      return JSON.readTree(raw);
    } catch (IOException e) {
      return JSON.getNodeFactory().textNode(raw);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  /** Thrown out of the handler, so that the server drops the connection of a reply cut on purpose. */
  private static final class CutOnPurpose extends IOException {

    CutOnPurpose() {
      super("reply cut on purpose");
    }
  }
}
