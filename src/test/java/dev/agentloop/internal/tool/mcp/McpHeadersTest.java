package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.agentloop.Runs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The configured headers (e.g. a bearer token from the environment) go with the requests to an HTTP server. */
class McpHeadersTest {

  @Test
  void should_send_the_configured_headers_and_start_although_the_server_refuses() throws Exception {
    // given an endpoint that records the Authorization header and refuses
    List<String> authorizations = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", exchange -> {
      authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
      exchange.sendResponseHeaders(401, -1);
      exchange.close();
    });
    server.start();
    McpServerSettings settings = new McpServerSettings(null, null, null, null,
        "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp", Map.of("Authorization", "Bearer t0k3n"), null,
        null, Duration.ofSeconds(5), Duration.ofMinutes(10));

    // when
    McpServers servers = McpServers.start(Map.of("crm", settings), Duration.ofSeconds(5));
    try {
      // then (tried in the background) the token went along, and the refusal left the server not connected,
      // without failing the start
      await().atMost(Runs.PATIENCE).until(() -> "down".equals(servers.states().get("crm")));
      assertThat(authorizations).isNotEmpty().allMatch("Bearer t0k3n"::equals);
      assertThat(servers.connected("crm")).hasValue(false);
      assertThat(servers.notConnected()).containsOnlyKeys("crm");
    } finally {
      servers.close();
      server.stop(0);
    }
  }
}
