package dev.agentloop.llm;

import java.util.List;

/**
 * What a model answered. Nothing here is trusted: text may be empty or huge, tool calls may name
 * tools that do not exist or carry arguments that are not JSON; the agent interprets it.
 *
 * @param tokens total tokens the provider reported for the call, 0 when it reports none
 */
public record ModelReply(String text, List<ToolCall> toolCalls, long tokens) {

  public ModelReply {
    text = text == null ? "" : text;
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }
}
