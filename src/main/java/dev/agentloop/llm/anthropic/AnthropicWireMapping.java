package dev.agentloop.llm.anthropic;

import dev.agentloop.llm.ChatMessage;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.llm.StopReason;
import dev.agentloop.llm.langchain4j.ReplyMapping;
import dev.agentloop.llm.langchain4j.ToolMapping;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.anthropic.AnthropicChatResponseMetadata;

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
   * Whether the request continues a tool turn whose thinking block is not at hand, or whose calls a
   * person changed: with thinking on, Anthropic refuses a tool turn without its block, so it goes
   * without thinking.
   */
  static boolean lacksThinkingOfLastToolTurn(ModelRequest request, ThinkingBlocks thinking) {
    for (int i = request.messages().size() - 1; i >= 0; i--) {
      if (request.messages().get(i) instanceof ChatMessage.AssistantMessage assistant) {
        return !assistant.toolCalls().isEmpty() && thinking.find(assistant.toolCalls()).isEmpty();
      }
    }
    return false;
  }

  /** The reply's thinking, kept for the tool turn it leads to. */
  static void rememberThinking(ChatResponse response, ThinkingBlocks thinking) {
    AiMessage message = response.aiMessage();
    if (message.hasToolExecutionRequests() && message.thinking() != null) {
      thinking.remember(new ThinkingBlocks.Block(message.thinking(), message.attributes(),
          ReplyMapping.toolCalls(message)));
    }
  }

  /**
   * @param maxTokens the limit the request set for the reply, named when the reply was cut at it
   * @param model the model asked for
   */
  static ModelReply toModelReply(ChatResponse response, int maxTokens, String model) {
    AiMessage message = response.aiMessage();
    String raw = response.metadata() instanceof AnthropicChatResponseMetadata anthropic
        && anthropic.rawHttpResponse() != null ? ReplyMapping.field(anthropic.rawHttpResponse().body(), "/stop_reason")
        : null;
    StopReason stop = ReplyMapping.stopReason(response, raw, "max tokens " + maxTokens,
        "raise agentloop.llm.anthropic.max-tokens");
    return new ModelReply(message.text(), message.thinking(), ReplyMapping.toolCalls(message),
        ReplyMapping.tokens(response), stop, ReplyMapping.model(response, model));
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
      thinking.find(assistant.toolCalls())
          .ifPresent(block -> builder.thinking(block.thinking()).attributes(block.attributes()));
      return builder.build();
    }
    ChatMessage.ToolResultMessage tool = (ChatMessage.ToolResultMessage) message;
    return ToolExecutionResultMessage.from(tool.callId(), tool.toolName(), tool.text());
  }
}
