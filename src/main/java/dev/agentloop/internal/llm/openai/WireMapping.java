package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.llm.langchain4j.ReplyMapping;
import dev.agentloop.internal.llm.langchain4j.ToolMapping;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.StopReason;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatResponseMetadata;

/** Converts between AgentLoop's model types and LangChain4j's. */
final class WireMapping {

  private WireMapping() {}

  static ChatRequest toChatRequest(ModelRequest request) {
    ChatRequest.Builder builder = ChatRequest.builder().messages(request.messages().stream().map(WireMapping::toMessage).toList());
    if (!request.tools().isEmpty()) {
      builder.toolSpecifications(request.tools().stream().map(ToolMapping::toSpecification).toList());
    }
    return builder.build();
  }

  /**
   * The reply with the model's reasoning apart from its text: DeepSeek's {@code reasoning_content}
   * (LangChain4j's {@code AiMessage.thinking()}, filled because the client returns thinking) and
   * {@code <think>} blocks in the content ({@link ThinkTags}).
   *
   * @param model the model asked for, {@code null} where AgentLoop does not know it (then the reply's)
   */
  static ModelReply toModelReply(ChatResponse response, StopReason stop, String model) {
    AiMessage message = response.aiMessage();
    ThinkTags.Split split = ThinkTags.split(message.text());
    return new ModelReply(split.text(), ThinkTags.join(message.thinking(), split.reasoning()),
        ReplyMapping.toolCalls(message), ReplyMapping.tokens(response), stop, ReplyMapping.model(response, model),
        ReplyMapping.response(response));
  }

  /**
   * Why an OpenAI-compatible endpoint stopped: its {@code finish_reason}. AgentLoop sends no
   * {@code max_tokens}, so a cut reply met the endpoint's own limit.
   */
  static StopReason stopReason(ChatResponse response) {
    String raw = response.metadata() instanceof OpenAiChatResponseMetadata openAi && openAi.rawHttpResponse() != null
        ? ReplyMapping.field(openAi.rawHttpResponse().body(), "/choices/0/finish_reason") : null;
    Integer written = response.tokenUsage() == null ? null : response.tokenUsage().outputTokenCount();
    return ReplyMapping.stopReason(response, raw,
        "the endpoint's own limit per reply" + (written == null ? "" : ", reached at " + written + " tokens"),
        "raise the model's output limit on the endpoint (AgentLoop sends no max_tokens, so the model's default"
            + " applies)");
  }

  private static dev.langchain4j.data.message.ChatMessage toMessage(ChatMessage message) {
    if (message instanceof ChatMessage.SystemMessage system) {
      return SystemMessage.from(system.text());
    }
    if (message instanceof ChatMessage.UserMessage user) {
      return UserMessage.from(user.text());
    }
    if (message instanceof ChatMessage.AssistantMessage assistant) {
      return assistant.toolCalls().isEmpty()
          ? AiMessage.from(assistant.text())
          : AiMessage.from(assistant.text().isEmpty() ? null : assistant.text(),
              assistant.toolCalls().stream().map(ToolMapping::toRequest).toList());
    }
    ChatMessage.ToolResultMessage tool = (ChatMessage.ToolResultMessage) message;
    return ToolExecutionResultMessage.from(tool.callId(), tool.toolName(), tool.text());
  }
}
