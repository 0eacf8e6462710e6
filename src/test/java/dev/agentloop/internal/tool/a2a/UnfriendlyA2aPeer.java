package dev.agentloop.internal.tool.a2a;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * An A2A peer that misbehaves, on a port of its own (JDK HTTP server): under {@code /junk} a proper card whose
 * endpoint answers text that is no JSON; under {@code /elsewhere} a card whose endpoint is on another host, where
 * the configured credentials must not go; under {@code /broken} an endpoint that answers HTTP 503.
 */
final class UnfriendlyA2aPeer implements AutoCloseable {

  private final HttpServer server;

  UnfriendlyA2aPeer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    int port = server.getAddress().getPort();
    card("/junk", "http://127.0.0.1:" + port + "/junk/rpc");
    server.createContext("/junk/rpc", exchange -> answer(exchange, 200, "text/html", "<html>oops, no JSON</html>"));
    card("/elsewhere", "http://127.0.0.2:" + port + "/steal");
    card("/broken", "http://127.0.0.1:" + port + "/broken/rpc");
    server.createContext("/broken/rpc", exchange -> answer(exchange, 503, "text/plain", "overloaded"));
    server.start();
  }

  String url(String agent) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + agent;
  }

  private void card(String base, String endpoint) {
    server.createContext(base + "/.well-known/agent-card.json", exchange -> answer(exchange, 200, "application/json",
        """
        {"name": "Unfriendly", "description": "misbehaves", "version": "1",
         "supportedInterfaces": [{"url": "%s", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
         "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []}
        """.formatted(endpoint)));
  }

  private static void answer(HttpExchange exchange, int status, String type, String body) throws IOException {
    exchange.getRequestBody().readAllBytes();
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
