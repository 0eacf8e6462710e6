package dev.agentloop.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentloop.spi.ToolException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpGetToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HttpServer server;
  private String base;
  private final AtomicInteger targetHits = new AtomicInteger();
  private static volatile CountDownLatch trickleClosed;

  @BeforeEach
  void startServer() throws IOException {
    trickleClosed = new CountDownLatch(1);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/hello", exchange -> respond(exchange, 200, "text/plain; charset=utf-8", "hello, agent"));
    server.createContext("/big", exchange -> respond(exchange, 200, "text/plain", "x".repeat(10_000)));
    server.createContext("/missing", exchange -> respond(exchange, 404, "application/json", "{\"error\":\"nope\"}"));
    server.createContext("/moved", exchange -> {
      exchange.getResponseHeaders().add("Location", base + "/target");
      exchange.sendResponseHeaders(302, -1);
      exchange.close();
    });
    server.createContext("/target", exchange -> {
      targetHits.incrementAndGet();
      respond(exchange, 200, "text/plain", "redirect target");
    });
    server.createContext("/trickle", HttpGetToolTest::trickle);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
    ((ExecutorService) server.getExecutor()).shutdownNow();
  }

  /** Sends a body of a byte a second for five minutes; counts down {@link #trickleClosed} once the client hung up. */
  private static void trickle(HttpExchange exchange) throws IOException {
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (int i = 0; i < 300; i++) {
        out.write('x');
        out.flush();
        Thread.sleep(1_000);
      }
    } catch (IOException closedByClient) {
      trickleClosed.countDown();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static HttpGetTool tool(int maxBytes) {
    return new HttpGetTool(List.of("127.0.0.1"), maxBytes, Duration.ofSeconds(5));
  }

  private static JsonNode url(String url) {
    return JSON.createObjectNode().put("url", url);
  }

  @Test
  void should_return_status_content_type_and_body() throws Exception {
    // when
    String result = tool(1_000).execute(url(base + "/hello"));

    // then
    assertThat(result).isEqualTo("status: 200\ncontent-type: text/plain; charset=utf-8\n\nhello, agent");
  }

  @Test
  void should_report_an_error_status_with_its_body() throws Exception {
    String result = tool(1_000).execute(url(base + "/missing"));

    assertThat(result).isEqualTo("status: 404\ncontent-type: application/json\n\n{\"error\":\"nope\"}");
  }

  @Test
  void should_cut_the_body_at_max_bytes_with_a_note() throws Exception {
    // when
    String result = tool(100).execute(url(base + "/big"));

    // then
    assertThat(result).isEqualTo("status: 200\ncontent-type: text/plain\n\n" + "x".repeat(100) + "\n[cut after 100 bytes]");
  }

  @Test
  void should_end_a_body_that_trickles_past_the_time_out_and_close_its_connection() throws Exception {
    // given a tool with a 2 s time-out and a server that sends a byte a second for five minutes
    HttpGetTool tool = new HttpGetTool(List.of("127.0.0.1"), 1_000, Duration.ofSeconds(2));

    // when / then the call ends after its time-out, not after the body
    assertThatThrownBy(() -> tool.execute(url(base + "/trickle")))
        .isInstanceOf(ToolException.class)
        .hasMessage("GET " + base + "/trickle did not finish within 2000 ms; the connection was closed");
    assertThat(trickleClosed.await(30, TimeUnit.SECONDS)).as("the server saw the connection closed").isTrue();
  }

  @Test
  void should_end_at_once_when_interrupted_by_the_tool_time_out_and_close_its_connection() throws Exception {
    // given a call with a long time-out of its own, hanging on a trickling body
    HttpGetTool tool = new HttpGetTool(List.of("127.0.0.1"), 1_000, Duration.ofMinutes(10));
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<String> call = caller.submit(() -> tool.execute(url(base + "/trickle")));
      assertThatThrownBy(() -> call.get(2, TimeUnit.SECONDS)).isInstanceOf(java.util.concurrent.TimeoutException.class);

      // when the tool runner's time-out interrupts its thread
      call.cancel(true);

      // then the thread is free again, and the server saw the connection closed
      assertThat(caller.submit(() -> "free").get(5, TimeUnit.SECONDS)).isEqualTo("free");
      assertThat(trickleClosed.await(30, TimeUnit.SECONDS)).as("the server saw the connection closed").isTrue();
    } finally {
      caller.shutdownNow();
    }
  }

  @Test
  void should_report_a_redirect_with_its_location_without_following_it() throws Exception {
    // when
    String result = tool(1_000).execute(url(base + "/moved"));

    // then
    assertThat(result).startsWith("status: 302\n")
        .contains("\nlocation: " + base + "/target\n")
        .doesNotContain("redirect target");
    assertThat(targetHits).hasValue(0);
  }

  @Test
  void should_normalise_allowed_hosts_to_lower_case() {
    HttpGetTool tool = new HttpGetTool(List.of("API.Example.COM"), 1_000, Duration.ofSeconds(5));

    assertThat(tool.description()).endsWith("Allowed hosts: api.example.com.");
    assertThatThrownBy(() -> tool.execute(url(base + "/hello")))
        .isInstanceOf(ToolException.class)
        .hasMessage("host '127.0.0.1' is not on the allow-list: api.example.com");
  }

  @Test
  void should_refuse_a_host_not_on_the_allow_list() {
    assertThatThrownBy(() -> tool(1_000).execute(url("http://localhost:" + server.getAddress().getPort() + "/hello")))
        .isInstanceOf(ToolException.class)
        .hasMessage("host 'localhost' is not on the allow-list: 127.0.0.1");
  }

  @Test
  void should_refuse_a_user_info_trick_that_hides_the_real_host() {
    assertThatThrownBy(() -> tool(1_000).execute(url("http://127.0.0.1@example.com/")))
        .isInstanceOf(ToolException.class)
        .hasMessage("host 'example.com' is not on the allow-list: 127.0.0.1");
  }

  @Test
  void should_say_when_the_allow_list_is_empty() {
    HttpGetTool tool = new HttpGetTool(List.of(), 1_000, Duration.ofSeconds(5));

    assertThat(tool.description()).endsWith("Allowed hosts: none.");
    assertThatThrownBy(() -> tool.execute(url(base + "/hello")))
        .isInstanceOf(ToolException.class)
        .hasMessage("host '127.0.0.1' is not on the allow-list (the list is empty)");
  }

  @Test
  void should_refuse_non_http_schemes() {
    HttpGetTool tool = tool(1_000);

    assertThatThrownBy(() -> tool.execute(url("ftp://127.0.0.1/file.txt")))
        .isInstanceOf(ToolException.class)
        .hasMessage("only http and https URLs are allowed");
    assertThatThrownBy(() -> tool.execute(url("file:///etc/passwd")))
        .isInstanceOf(ToolException.class)
        .hasMessage("only http and https URLs are allowed");
    assertThatThrownBy(() -> tool.execute(url("127.0.0.1/hello")))
        .isInstanceOf(ToolException.class)
        .hasMessage("only http and https URLs are allowed");
  }

  @Test
  void should_refuse_an_invalid_url() {
    assertThatThrownBy(() -> tool(1_000).execute(url("http://127.0.0.1/a b")))
        .isInstanceOf(ToolException.class)
        .hasMessage("'http://127.0.0.1/a b' is not a valid URL");
  }
}
