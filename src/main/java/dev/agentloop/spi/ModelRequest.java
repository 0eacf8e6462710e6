package dev.agentloop.spi;

import java.util.List;
import java.util.Objects;

/**
 * One call to a model.
 *
 * @param purpose planning or thinking; a real model sees only the prompt, the scripted model uses it
 * @param run which run and turn the call is for
 * @param stablePrefix how many of the leading messages the run's next call sends again unchanged (with
 *     the same tools): where an adapter marks the end of the prefix a provider may cache; 0: unknown
 * @param answer the form the final answer must take, where the agent has an answer schema; {@code null}: text
 */
public record ModelRequest(Purpose purpose, List<ChatMessage> messages, List<ToolSpec> tools, RunInfo run,
    int stablePrefix, AnswerFormat answer) {

  public enum Purpose { PLAN, THINK }

  /**
   * @param turn the number of the model turn this call answers, counted on the active path from 1
   * @param attempt how many answers this run already had at this point (regenerate), from 0
   */
  public record RunInfo(String runId, String question, int turn, int attempt) {}

  public ModelRequest {
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(run, "run");
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    if (stablePrefix < 0 || stablePrefix > messages.size()) {
      throw new IllegalArgumentException("stablePrefix must be between 0 and the " + messages.size()
          + " messages, was " + stablePrefix);
    }
  }

  /** A call whose answer is text. */
  public ModelRequest(Purpose purpose, List<ChatMessage> messages, List<ToolSpec> tools, RunInfo run,
      int stablePrefix) {
    this(purpose, messages, tools, run, stablePrefix, null);
  }

  /** A call whose stable prefix is unknown. */
  public ModelRequest(Purpose purpose, List<ChatMessage> messages, List<ToolSpec> tools, RunInfo run) {
    this(purpose, messages, tools, run, 0);
  }

  /** The text of the newest tool result in the prompt, or "" when there is none. */
  public String lastToolResult() {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof ChatMessage.ToolResultMessage tool) {
        return tool.text();
      }
    }
    return "";
  }
}
