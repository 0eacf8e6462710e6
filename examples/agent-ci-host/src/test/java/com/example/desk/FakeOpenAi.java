package com.example.desk;

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A local fake of OpenAI's chat completions endpoint that speaks its wire format: per request a chat.completion with
 * the assistant's text or one tool call, as the given model decides from the request body.
 */
final class FakeOpenAi implements AutoCloseable {

  /** What the assistant replies: a text, or a call of a tool with JSON arguments. */
  record Reply(String text, String tool, String arguments) {

    static Reply text(String text) {
      return new Reply(text, null, null);
    }

    static Reply call(String tool, String arguments) {
      return new Reply(null, tool, arguments);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Function<JsonNode, Reply> model;
  private final AtomicInteger calls = new AtomicInteger();

  FakeOpenAi(Function<JsonNode, Reply> model) throws IOException {
    this.model = model;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange; InputStream in = exchange.getRequestBody()) {
      byte[] body = completion(model.apply(JSON.readTree(in.readAllBytes()))).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private String completion(Reply reply) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-fake-" + calls.incrementAndGet()).put("object", "chat.completion")
        .put("created", 1_700_000_000L).put("model", "gpt-4o-mini");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    if (reply.tool() == null) {
      message.put("content", reply.text());
      choice.put("finish_reason", "stop");
    } else {
      message.putNull("content");
      ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + calls.get())
          .put("type", "function");
      call.putObject("function").put("name", reply.tool()).put("arguments", reply.arguments());
      choice.put("finish_reason", "tool_calls");
    }
    root.putObject("usage").put("prompt_tokens", 40).put("completion_tokens", 10).put("total_tokens", 50);
    return root.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
