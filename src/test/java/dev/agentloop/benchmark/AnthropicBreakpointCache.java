package dev.agentloop.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Anthropic's prompt caching: tools, then system, then the messages' blocks; a prefix is cached only
 * where a block carries {@code cache_control}, and read only when it matches a cached one exactly: at
 * each breakpoint the cache looks for an entry ending there or at one of the 20 blocks before it, and
 * a request writes an entry at each of its breakpoints. Prefixes under 1,024 tokens are not cached.
 * An entry is the prefix's length and a 64-bit hash of its tokens (a full history's prefixes would
 * not fit in memory whole).
 */
final class AnthropicBreakpointCache extends CachingProvider {

  /** A cached prefix: its tokens and their hash. */
  private record Prefix(int length, long hash) {}

  private final Set<Prefix> entries = new HashSet<>();

  AnthropicBreakpointCache(TokenCostCase story) {
    super(story);
  }

  @Override
  int[] count(JsonNode body) {
    List<JsonNode> blocks = new ArrayList<>();
    body.path("tools").forEach(blocks::add);
    body.path("system").forEach(blocks::add);
    body.path("messages").forEach(message -> message.path("content").forEach(blocks::add));
    tokenizer.start();
    List<Integer> ends = new ArrayList<>();
    List<Integer> breakpoints = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      ObjectNode block = blocks.get(i).deepCopy();
      if (block.remove("cache_control") != null) {
        breakpoints.add(i);
      }
      ends.add(tokenizer.add(block.toString()));
    }
    int[] tokens = tokenizer.prompt();
    List<Prefix> prefixes = prefixes(tokens, ends);
    int read = 0;
    for (int breakpoint : breakpoints) {
      for (int i = breakpoint; i >= Math.max(0, breakpoint - 20); i--) {
        if (ends.get(i) >= 1_024 && entries.contains(prefixes.get(i))) {
          read = Math.max(read, ends.get(i));
          break;
        }
      }
    }
    for (int breakpoint : breakpoints) {
      if (ends.get(breakpoint) >= 1_024) {
        entries.add(prefixes.get(breakpoint));
      }
    }
    return new int[] {tokens.length, read};
  }

  /** The prefix ending at each block. */
  private static List<Prefix> prefixes(int[] tokens, List<Integer> ends) {
    List<Prefix> prefixes = new ArrayList<>();
    long hash = 17;
    int at = 0;
    for (int end : ends) {
      for (; at < end; at++) {
        hash = hash * 0x100000001b3L + tokens[at] + 1;
      }
      prefixes.add(new Prefix(end, hash));
    }
    return prefixes;
  }

  @Override
  String reply(String text, String tool, String arguments, int[] counted) {
    ObjectNode root = JSON.createObjectNode().put("id", "msg_1").put("type", "message").put("role", "assistant")
        .put("model", "claude-test");
    ArrayNode content = root.putArray("content");
    content.addObject().put("type", "text").put("text", text);
    if (tool != null) {
      try {
        content.addObject().put("type", "tool_use").put("id", "toolu_" + prompt.size()).put("name", tool)
            .set("input", JSON.readTree(arguments));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    root.put("stop_reason", tool != null ? "tool_use" : "end_turn");
    root.putNull("stop_sequence");
    root.putObject("usage").put("input_tokens", counted[0] - counted[1]).put("output_tokens", 20)
        .put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", counted[1]);
    return root.toString();
  }
}
