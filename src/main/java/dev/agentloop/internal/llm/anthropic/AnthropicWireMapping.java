package dev.agentloop.internal.llm.anthropic;

import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.StopReason;
import dev.agentloop.internal.llm.langchain4j.ReplyMapping;
import dev.agentloop.internal.llm.langchain4j.ToolMapping;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.anthropic.AnthropicChatResponseMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts between AgentLoop's model types and LangChain4j's for the Anthropic client: system
 * messages become the request's {@code system}, tool calls {@code tool_use} blocks, tool results
 * {@code tool_result} blocks, thinking blocks the reply's reasoning.
 *
 * <p>Prompt caching: Anthropic caches a prompt's prefix only up to a block marked with
 * {@code cache_control}, at most four per request. The client marks the system prompt (which follows
 * the tools, so both are cached); here the last message of the request's stable prefix (the question
 * and the digest, which the next turns send again unchanged) and the request's last message (which the
 * next turn finds among its own, a few blocks earlier) are marked: three breakpoints.
 */
final class AnthropicWireMapping {

  /** The message attribute LangChain4j's Anthropic client turns into the block's {@code cache_control}. */
  private static final String CACHE_CONTROL = "cache_control";
  private static final String EPHEMERAL = "ephemeral";

  private AnthropicWireMapping() {}

  /**
   * @param thinking the thinking blocks of earlier replies, sent again with their tool calls
   */
  static ChatRequest toChatRequest(ModelRequest request, ThinkingBlocks thinking) {
    List<ChatMessage> messages = request.messages();
    List<dev.langchain4j.data.message.ChatMessage> mapped = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      boolean breakpoint = request.stablePrefix() > 0
          && (i == request.stablePrefix() - 1 || i == messages.size() - 1);
      mapped.add(toMessage(messages.get(i), thinking, breakpoint));
    }
    ChatRequest.Builder builder = ChatRequest.builder().messages(mapped);
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
        ReplyMapping.tokens(response), stop, ReplyMapping.model(response, model),
        ReplyMapping.response(response));
  }

  /** @param breakpoint whether the message ends a prefix to cache (a system message is marked by the client) */
  private static dev.langchain4j.data.message.ChatMessage toMessage(ChatMessage message, ThinkingBlocks thinking,
      boolean breakpoint) {
    Map<String, Object> cache = breakpoint ? Map.of(CACHE_CONTROL, EPHEMERAL) : Map.of();
    if (message instanceof ChatMessage.SystemMessage system) {
      return SystemMessage.from(system.text());
    }
    if (message instanceof ChatMessage.UserMessage user) {
      return UserMessage.builder().addContent(TextContent.from(user.text())).attributes(cache).build();
    }
    if (message instanceof ChatMessage.AssistantMessage assistant) {
      if (assistant.toolCalls().isEmpty()) {
        return AiMessage.builder().text(assistant.text()).attributes(cache).build();
      }
      AiMessage.Builder builder = AiMessage.builder().text(assistant.text().isEmpty() ? null : assistant.text())
          .toolExecutionRequests(assistant.toolCalls().stream().map(ToolMapping::toRequest).toList());
      Map<String, Object> attributes = new HashMap<>(cache);
      thinking.find(assistant.toolCalls()).ifPresent(block -> {
        builder.thinking(block.thinking());
        attributes.putAll(block.attributes());
      });
      return builder.attributes(attributes).build();
    }
    ChatMessage.ToolResultMessage tool = (ChatMessage.ToolResultMessage) message;
    return ToolExecutionResultMessage.builder().id(tool.callId()).toolName(tool.toolName()).text(tool.text())
        .attributes(cache).build();
  }
}
