package dev.agentloop.spi;

import java.util.List;
import java.util.Objects;

/** A message of the conversation sent to a model, independent of any provider's wire format. */
public sealed interface ChatMessage {

  record SystemMessage(String text) implements ChatMessage {
    public SystemMessage {
      Objects.requireNonNull(text, "text");
    }
  }

  record UserMessage(String text) implements ChatMessage {
    public UserMessage {
      Objects.requireNonNull(text, "text");
    }
  }

  /** What the model said in one turn: text, tool calls, or both. */
  record AssistantMessage(String text, List<ToolCall> toolCalls) implements ChatMessage {
    public AssistantMessage {
      text = text == null ? "" : text;
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** The result of one tool call, answering the call with the same id. */
  record ToolResultMessage(String callId, String toolName, String text) implements ChatMessage {
    public ToolResultMessage {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(toolName, "toolName");
      Objects.requireNonNull(text, "text");
    }
  }
}
