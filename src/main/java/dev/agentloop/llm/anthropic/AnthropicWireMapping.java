package dev.agentloop.llm.anthropic;

import dev.agentloop.llm.ChatMessage;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.llm.TokenCounts;
import dev.agentloop.llm.ToolCall;
import dev.agentloop.llm.langchain4j.ToolMapping;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Converts between AgentLoop's model types and LangChain4j's for the Anthropic client: system
 * messages become the request's {@code system}, tool calls {@code tool_use} blocks, tool results
 * {@code tool_result} blocks, thinking blocks the reply's reasoning.
 */
final class AnthropicWireMapping {

  private AnthropicWireMapping() {}

  /**
   * @param thinking the thinking blocks of earlier replies, sent again with their tool calls
   */
  static ChatRequest toChatRequest(ModelRequest request, ThinkingBlocks thinking) {
    ChatRequest.Builder builder = ChatRequest.builder()
        .messages(request.messages().stream().map(message -> toMessage(message, thinking)).toList());
    if (!request.tools().isEmpty()) {
      builder.toolSpecifications(request.tools().stream().map(ToolMapping::toSpecification).toList());
    }
    return builder.build();
  }

  /**
   * Whether the request continues a tool turn whose thinking block is not at hand: with thinking on,
   * Anthropic refuses such a request, so it goes without thinking.
   */
  static boolean lacksThinkingOfLastToolTurn(ModelRequest request, ThinkingBlocks thinking) {
    for (int i = request.messages().size() - 1; i >= 0; i--) {
      if (request.messages().get(i) instanceof ChatMessage.AssistantMessage assistant) {
        return !assistant.toolCalls().isEmpty() && thinking.find(assistant.toolCalls().get(0).id()).isEmpty();
      }
    }
    return false;
  }

  /** The reply's thinking, kept for the tool turn it leads to. */
  static void rememberThinking(ChatResponse response, ThinkingBlocks thinking) {
    AiMessage message = response.aiMessage();
    if (message.hasToolExecutionRequests() && message.thinking() != null) {
      thinking.remember(message.toolExecutionRequests().stream().map(ToolExecutionRequest::id).toList(),
          new ThinkingBlocks.Block(message.thinking(), Map.copyOf(message.attributes())));
    }
  }

  static ModelReply toModelReply(ChatResponse response) {
    AiMessage message = response.aiMessage();
    List<ToolCall> calls = new ArrayList<>();
    if (message.hasToolExecutionRequests()) {
      for (ToolExecutionRequest request : message.toolExecutionRequests()) {
        calls.add(new ToolCall(request.id(), request.name(), request.arguments()));
      }
    }
    TokenUsage usage = response.tokenUsage();
    TokenCounts tokens = usage == null ? TokenCounts.UNREPORTED
        : TokenCounts.of(usage.inputTokenCount(), usage.outputTokenCount(), usage.totalTokenCount());
    return new ModelReply(message.text(), message.thinking(), calls, tokens);
  }

  private static dev.langchain4j.data.message.ChatMessage toMessage(ChatMessage message, ThinkingBlocks thinking) {
    if (message instanceof ChatMessage.SystemMessage system) {
      return SystemMessage.from(system.text());
    }
    if (message instanceof ChatMessage.UserMessage user) {
      return UserMessage.from(user.text());
    }
    if (message instanceof ChatMessage.AssistantMessage assistant) {
      if (assistant.toolCalls().isEmpty()) {
        return AiMessage.from(assistant.text());
      }
      AiMessage.Builder builder = AiMessage.builder().text(assistant.text().isEmpty() ? null : assistant.text())
          .toolExecutionRequests(assistant.toolCalls().stream().map(ToolMapping::toRequest).toList());
      thinking.find(assistant.toolCalls().get(0).id())
          .ifPresent(block -> builder.thinking(block.thinking()).attributes(block.attributes()));
      return builder.build();
    }
    ChatMessage.ToolResultMessage tool = (ChatMessage.ToolResultMessage) message;
    return ToolExecutionResultMessage.from(tool.callId(), tool.toolName(), tool.text());
  }
}
