package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.ErrorBodies;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
import dev.agentloop.internal.llm.ReplyStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A streamed chat completion ({@code stream: true} with {@code stream_options.include_usage}) read chunk by chunk
 * and put together into the {@code chat.completion} body the endpoint would have answered without a stream: the
 * content, refusal and reasoning of choice 0 joined, each tool call's fragments joined by their {@code index}, the
 * last {@code finish_reason}, and the usage of the chunk that carries it (a server that sends running totals in
 * every chunk is counted once, by its last). The content goes on as it arrives, its {@code <think>} blocks held back.
 * An error object in a data line is the answer instead; a stream that ends before {@code [DONE]} is no reply.
 */
final class OpenAiReplyStream implements ReplyStream {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SHOWN = 200;

  private final StreamedThinkTags text;
  private final ObjectNode completion = JSON.createObjectNode();
  private final StringBuilder content = new StringBuilder();
  private final StringBuilder refusal = new StringBuilder();
  private final Map<String, StringBuilder> reasoning = new TreeMap<>();
  private final Map<Integer, ObjectNode> calls = new TreeMap<>();
  private final Map<Integer, StringBuilder> arguments = new TreeMap<>();
  private String finishReason;
  private JsonNode usage;
  private String error;
  private boolean done;

  OpenAiReplyStream(Consumer<String> text) {
    this.text = new StreamedThinkTags(text);
  }

  @Override
  public String ask(String body) {
    ObjectNode request = (ObjectNode) read(body, "the request");
    request.put("stream", true);
    request.putObject("stream_options").put("include_usage", true);
    return request.toString();
  }

  @Override
  public void event(String name, String data) {
    if (done || error != null) {
      return;
    }
    if (data.strip().equals("[DONE]")) {
      done = true;
      return;
    }
    JsonNode chunk = read(data, "a data line of the endpoint's event stream");
    if (ErrorBodies.errorInstead(data) != null) {
      error = data;
      return;
    }
    for (String field : new String[] {"id", "created", "model", "system_fingerprint", "service_tier"}) {
      if (chunk.hasNonNull(field)) {
        completion.set(field, chunk.get(field));
      }
    }
    if (chunk.hasNonNull("usage")) {
      usage = chunk.get("usage");
    }
    for (JsonNode choice : chunk.path("choices")) {
      if (choice.path("index").asInt(0) == 0) {
        choice(choice);
      }
    }
  }

  private void choice(JsonNode choice) {
    if (choice.hasNonNull("finish_reason")) {
      finishReason = choice.get("finish_reason").asText();
    }
    JsonNode delta = choice.path("delta");
    if (delta.path("content").isTextual()) {
      content.append(delta.get("content").asText());
      text.piece(delta.get("content").asText());
    }
    if (delta.path("refusal").isTextual()) {
      refusal.append(delta.get("refusal").asText());
    }
    for (String field : new String[] {"reasoning_content", "reasoning"}) {
      if (delta.path(field).isTextual()) {
        reasoning.computeIfAbsent(field, f -> new StringBuilder()).append(delta.get(field).asText());
      }
    }
    for (JsonNode fragment : delta.path("tool_calls")) {
      toolCall(fragment);
    }
  }

  private void toolCall(JsonNode fragment) {
    int index = fragment.path("index").asInt(calls.size());
    ObjectNode call = calls.computeIfAbsent(index, i -> JSON.createObjectNode().put("type", "function"));
    for (String field : new String[] {"id", "type"}) {
      if (fragment.hasNonNull(field)) {
        call.set(field, fragment.get(field));
      }
    }
    JsonNode function = fragment.path("function");
    if (function.hasNonNull("name")) {
      call.with("function").set("name", function.get("name"));
    }
    JsonNode part = function.path("arguments");
    if (part.isTextual()) {
      arguments.computeIfAbsent(index, i -> new StringBuilder()).append(part.asText());
    } else if (part.isContainerNode()) {
      // a server that sends the whole arguments as an object: AnswerRepairs turns it into text as for one reply
      call.with("function").set("arguments", part);
    }
  }

  @Override
  public String reply() {
    if (error != null) {
      return error;
    }
    if (!done) {
      throw new ErrorKeepingHttpClient.NotAReply("the endpoint's event stream ended before its end ([DONE]):"
          + " the reply was cut off" + (content.length() > 0 ? " after " + content.length() + " characters" : ""),
          true);
    }
    completion.put("object", "chat.completion");
    ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    if (content.length() > 0) {
      message.put("content", content.toString());
    } else {
      message.putNull("content");
    }
    if (refusal.length() > 0) {
      message.put("refusal", refusal.toString());
    }
    reasoning.forEach((field, text) -> message.put(field, text.toString()));
    if (!calls.isEmpty()) {
      calls.forEach((index, call) -> {
        String text = arguments.containsKey(index) ? arguments.get(index).toString() : "";
        if (!text.isEmpty() || !call.path("function").path("arguments").isContainerNode()) {
          call.with("function").put("arguments", text);
        }
        message.withArray("tool_calls").add(call);
      });
    }
    choice.put("finish_reason", finishReason);
    if (usage != null) {
      completion.set("usage", usage);
    }
    return completion.toString();
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
