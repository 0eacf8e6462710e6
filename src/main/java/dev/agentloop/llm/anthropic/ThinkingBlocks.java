package dev.agentloop.llm.anthropic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thinking blocks of recent replies that asked for tools, by the ids of their tool calls. With
 * extended thinking on, Anthropic wants the thinking block (with its signature) of the assistant
 * turn whose tool results come back; AgentLoop's trace keeps the tool calls, not the signature, so
 * the adapter keeps the blocks here for the next turn. The oldest are forgotten first; a turn whose
 * block is not here (another node, a restart, an edited call) is sent without thinking. Thread-safe.
 */
final class ThinkingBlocks {

  /** A thinking block: its text and the attributes LangChain4j carries its signature in. */
  record Block(String thinking, Map<String, Object> attributes) {}

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

  synchronized void remember(List<String> callIds, Block block) {
    callIds.forEach(id -> byCallId.put(id, block));
  }

  synchronized Optional<Block> find(String callId) {
    return Optional.ofNullable(byCallId.get(callId));
  }
}
