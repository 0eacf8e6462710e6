package dev.agentloop.internal.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ToolCall;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thinking blocks of recent replies that asked for tools, by the ids of their tool calls. With
 * extended thinking on, Anthropic wants the thinking block (with its signature) of the assistant
 * turn whose tool results come back; AgentLoop's trace keeps the tool calls, not the signature, so
 * the adapter keeps the blocks here for the next turn. The oldest are forgotten first.
 *
 * <p>A block goes back only with the very calls it led to: same ids, tools and arguments. A call a
 * person edited (in review, or when approving it) is no longer what the model reasoned towards, and
 * sending the signed reasoning with it would tell the model it chose what it did not; such a turn,
 * like one whose block is not here (another node, a restart), is sent without thinking. Thread-safe.
 */
final class ThinkingBlocks {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A thinking block: its text, the attributes LangChain4j carries its signature in, and the calls it led to. */
  record Block(String thinking, Map<String, Object> attributes, List<ToolCall> calls) {

    Block {
      attributes = Map.copyOf(attributes);
      calls = List.copyOf(calls);
    }
  }

  /** Knows no block: for requests that go without thinking. */
  static final ThinkingBlocks NONE = new ThinkingBlocks(0);

  private final Map<String, Block> byCallId;

  ThinkingBlocks(int capacity) {
    this.byCallId = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Block> eldest) {
        return size() > capacity;
      }
    };
  }

  synchronized void remember(Block block) {
    block.calls().forEach(call -> byCallId.put(call.id(), block));
  }

  /** The block that led to exactly these calls, unchanged; empty when there is none. */
  synchronized Optional<Block> find(List<ToolCall> calls) {
    Block block = calls.isEmpty() ? null : byCallId.get(calls.get(0).id());
    return block != null && same(block.calls(), calls) ? Optional.of(block) : Optional.empty();
  }

  private static boolean same(List<ToolCall> made, List<ToolCall> sent) {
    if (made.size() != sent.size()) {
      return false;
    }
    for (int i = 0; i < made.size(); i++) {
      ToolCall a = made.get(i);
      ToolCall b = sent.get(i);
      if (!a.id().equals(b.id()) || !a.name().equals(b.name()) || !sameArguments(a.arguments(), b.arguments())) {
        return false;
      }
    }
    return true;
  }

  /** The same JSON, however it is spaced: the trace writes arguments again from their parsed form. */
  private static boolean sameArguments(String a, String b) {
    if (a.equals(b)) {
      return true;
    }
    try {
      JsonNode left = JSON.readTree(a.isBlank() ? "{}" : a);
      JsonNode right = JSON.readTree(b.isBlank() ? "{}" : b);
      return left != null && left.equals(right);
    } catch (IOException e) {
      return false;
    }
  }
}
