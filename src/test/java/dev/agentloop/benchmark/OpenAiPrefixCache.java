package dev.agentloop.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's automatic prompt caching: prompts of 1,024 tokens and more; the longest prefix shared with
 * one of the 20 latest prompts is served from cache, in steps of 128 tokens after the first 1,024.
 * Tools come first, then the messages in order.
 */
final class OpenAiPrefixCache extends CachingProvider {

  private final List<int[]> earlier = new ArrayList<>();

  OpenAiPrefixCache(TokenCostCase story) {
    super(story);
  }

  @Override
  int[] count(JsonNode body) {
    tokenizer.start();
    tokenizer.add("tools: " + body.path("tools"));
    body.path("messages").forEach(message -> tokenizer.add(message.path("role").asText() + ": "
        + message.path("content").asText() + message.path("tool_calls") + message.path("tool_call_id").asText()));
    int[] tokens = tokenizer.prompt();
    // a cache keeps a prefix for minutes, not for the whole run
    int longest = earlier.stream().mapToInt(previous -> Tokenizer.commonPrefix(previous, tokens)).max().orElse(0);
    earlier.add(tokens);
    if (earlier.size() > 20) {
      earlier.remove(0);
    }
    int hit = longest < 1_024 ? 0 : 1_024 + (longest - 1_024) / 128 * 128;
    return new int[] {tokens.length, hit};
  }

  @Override
  String reply(String text, String tool, String arguments, int[] counted) {
    ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
        .put("created", 1_700_000_000).put("model", "gpt-test");
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
    ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", text);
    if (tool != null) {
      ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + prompt.size())
          .put("type", "function");
      call.putObject("function").put("name", tool).put("arguments", arguments);
    }
    choice.put("finish_reason", tool != null ? "tool_calls" : "stop");
    ObjectNode usage = root.putObject("usage").put("prompt_tokens", counted[0]).put("completion_tokens", 20)
        .put("total_tokens", counted[0] + 20);
    usage.putObject("prompt_tokens_details").put("cached_tokens", counted[1]);
    return root.toString();
  }
}
