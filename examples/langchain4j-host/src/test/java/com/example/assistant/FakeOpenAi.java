package com.example.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A local fake of OpenAI's chat completions endpoint that speaks its wire format: a chat.completion per request. */
final class FakeOpenAi implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final Function<JsonNode, String> answers;

  /** @param answers the assistant's text for a request body */
  FakeOpenAi(Function<JsonNode, String> answers) throws IOException {
    this.answers = answers;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange; InputStream in = exchange.getRequestBody()) {
      JsonNode request = JSON.readTree(in.readAllBytes());
      requests.add(request);
      byte[] body = completion(answers.apply(request)).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static String completion(String text) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-fake").put("object", "chat.completion").put("created", 1_700_000_000L)
        .put("model", "gpt-4o-mini");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", text);
    root.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
    return root.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
