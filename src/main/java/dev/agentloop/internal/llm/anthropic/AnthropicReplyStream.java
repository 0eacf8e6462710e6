package dev.agentloop.internal.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
import dev.agentloop.internal.llm.ReplyStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A streamed Messages reply ({@code stream: true}) read event by event and put together into the {@code message}
 * body the API would have answered without a stream: {@code message_start}'s message, each content block from its
 * {@code content_block_start} and its deltas (text, a tool call's input JSON in fragments, thinking and its
 * signature), {@code message_delta}'s stop reason and usage (running totals: the last counts, once). Text blocks go
 * on as they arrive. An {@code error} event is the answer instead; a stream that ends before {@code message_stop} is
 * no reply; {@code ping} and unknown events are skipped, as Anthropic asks of clients.
 */
final class AnthropicReplyStream implements ReplyStream {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SHOWN = 200;

  private final Consumer<String> text;
  private final Map<Integer, ObjectNode> blocks = new TreeMap<>();
  private final Map<Integer, StringBuilder> inputs = new TreeMap<>();
  private ObjectNode message;
  private String error;
  private boolean stopped;

  AnthropicReplyStream(Consumer<String> text) {
    this.text = text;
  }

  @Override
  public String ask(String body) {
    ObjectNode request = (ObjectNode) read(body, "the request");
    request.put("stream", true);
    return request.toString();
  }

  @Override
  public void event(String name, String data) {
    if (stopped || error != null) {
      return;
    }
    JsonNode event = read(data, "a data line of the endpoint's event stream");
    String type = event.path("type").asText(name);
    switch (type) {
      case "message_start" -> message = event.path("message").deepCopy();
      case "content_block_start" -> blocks.put(event.path("index").asInt(), event.path("content_block").deepCopy());
      case "content_block_delta" -> delta(event.path("index").asInt(), event.path("delta"));
      case "message_delta" -> messageDelta(event);
      case "message_stop" -> stopped = true;
      case "error" -> error = data;
      default -> { } // ping, content_block_stop, and events added later
    }
  }

  private void delta(int index, JsonNode delta) {
    ObjectNode block = blocks.get(index);
    if (block == null) {
      throw new ErrorKeepingHttpClient.NotAReply("the endpoint's event stream sent a delta of content block " + index
          + ", which it never started", true);
    }
    switch (delta.path("type").asText()) {
      case "text_delta" -> {
        append(block, "text", delta.path("text").asText());
        text.accept(delta.path("text").asText());
      }
      case "input_json_delta" -> inputs.computeIfAbsent(index, i -> new StringBuilder())
          .append(delta.path("partial_json").asText());
      case "thinking_delta" -> append(block, "thinking", delta.path("thinking").asText());
      case "signature_delta" -> append(block, "signature", delta.path("signature").asText());
      default -> { } // citations and deltas added later: not part of what AgentLoop reads
    }
  }

  private static void append(ObjectNode block, String field, String piece) {
    block.put(field, block.path(field).asText("") + piece);
  }

  private void messageDelta(JsonNode event) {
    ObjectNode reply = started();
    event.path("delta").fields().forEachRemaining(field -> reply.set(field.getKey(), field.getValue()));
    ObjectNode usage = reply.has("usage") && reply.get("usage").isObject() ? (ObjectNode) reply.get("usage")
        : reply.putObject("usage");
    event.path("usage").fields().forEachRemaining(field -> {
      if (!field.getValue().isNull()) {
        usage.set(field.getKey(), field.getValue());
      }
    });
  }

  private ObjectNode started() {
    if (message == null) {
      throw new ErrorKeepingHttpClient.NotAReply("the endpoint's event stream did not begin with message_start", true);
    }
    return message;
  }

  @Override
  public String reply() {
    if (error != null) {
      return error;
    }
    if (!stopped) {
      throw new ErrorKeepingHttpClient.NotAReply("the endpoint's event stream ended before its end (message_stop):"
          + " the reply was cut off", true);
    }
    ObjectNode reply = started();
    var content = reply.putArray("content");
    blocks.forEach((index, block) -> {
      if (inputs.containsKey(index)) {
        String input = inputs.get(index).toString();
        block.set("input", input.isBlank() ? JSON.createObjectNode() : read(input, "the input of tool call "
            + block.path("name").asText()));
      }
      content.add(block);
    });
    return reply.toString();
  }

  private static JsonNode read(String json, String what) {
    try {
      JsonNode node = JSON.readTree(json);
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (IOException e) {
      // said below, with what came
    }
    String shown = json.length() > SHOWN ? json.substring(0, SHOWN) + "…" : json;
    throw new ErrorKeepingHttpClient.NotAReply(what + " is no JSON object: " + shown, true);
  }
}
