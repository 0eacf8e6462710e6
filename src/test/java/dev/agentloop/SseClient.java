package dev.agentloop;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A server-sent events client as a browser's {@code EventSource} is one: the JDK's HttpClient reads the stream line
 * by line on a thread of its own, and each blank line dispatches the event its {@code id:}, {@code event:} and
 * {@code data:} lines made; comments count, so that a test can tell a kept-alive stream. Close it to disconnect.
 */
public final class SseClient implements AutoCloseable {

  /** One event as it came: its id ({@code null} when it had none), name and data. */
  public record Event(String id, String name, String data) {}

  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final HttpResponse<Stream<String>> response;
  private final Thread reader;
  private volatile int comments;

  private SseClient(HttpResponse<Stream<String>> response) {
    this.response = response;
    this.reader = new Thread(this::read, "sse-client");
    reader.setDaemon(true);
    if (response.statusCode() == 200) {
      reader.start();
    }
  }

  /**
   * Opens {@code path} as {@code user} (password = user id), sending {@code lastEventId} when not {@code null}.
   */
  public static SseClient open(int port, String path, String user, String lastEventId) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Accept", "text/event-stream").GET();
    if (user != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder()
          .encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8)));
    }
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    try {
      return new SseClient(HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofLines()));
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public int status() {
    return response.statusCode();
  }

  public String contentType() {
    return response.headers().firstValue("Content-Type").orElse("");
  }

  /** The body of a response that is no stream (a problem), read whole. */
  public String body() {
    return String.join("\n", response.body().toList());
  }

  /** The next event, waiting for it up to {@code patience}; fails when none came. */
  public Event next(Duration patience) {
    try {
      Event event = events.poll(patience.toMillis(), TimeUnit.MILLISECONDS);
      if (event == null) {
        throw new AssertionError("no event within " + patience);
      }
      return event;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The events up to and including the first that matches, in order. */
  public List<Event> until(Predicate<Event> last, Duration patience) {
    List<Event> seen = new ArrayList<>();
    Event event;
    do {
      event = next(patience);
      seen.add(event);
    } while (!last.test(event));
    return seen;
  }

  /** Whether the server ended the stream (the reader saw its end). */
  public boolean ended() {
    return !reader.isAlive() && status() == 200;
  }

  public int comments() {
    return comments;
  }

  private void read() {
    String id = null;
    String name = null;
    StringBuilder data = new StringBuilder();
    try (Stream<String> lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.isEmpty()) {
          if (name != null || data.length() > 0) {
            events.add(new Event(id, name == null ? "message" : name, data.toString()));
          }
          id = null;
          name = null;
          data.setLength(0);
        } else if (line.startsWith(":")) {
          comments++;
        } else if (line.startsWith("id:")) {
          id = line.substring(3).strip();
        } else if (line.startsWith("event:")) {
          name = line.substring(6).strip();
        } else if (line.startsWith("data:")) {
          data.append(data.length() > 0 ? "\n" : "").append(line.substring(5).stripLeading());
        }
      }
    } catch (UncheckedIOException e) {
      // closed by the test, or by the server
    }
  }

  @Override
  public void close() {
    response.body().close();
    reader.interrupt();
  }
}
