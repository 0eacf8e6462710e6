package dev.agentloop.internal.llm.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.StopReason;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.spi.ToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every LangChain4j-based adapter reads from a reply the same way: its tool calls, the tokens
 * it reported, and why it stopped. Thread-safe.
 */
public final class ReplyMapping {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(ReplyMapping.class);

  private ReplyMapping() {}

  public static List<ToolCall> toolCalls(AiMessage message) {
    return message.hasToolExecutionRequests()
        ? message.toolExecutionRequests().stream().map(ReplyMapping::toolCall).toList() : List.of();
  }

  /**
   * The tokens of the reply, with what the provider's prompt cache served or stored where LangChain4j
   * passes it on: OpenAI's {@code prompt_tokens_details.cached_tokens} (inside its prompt tokens), Anthropic's
   * {@code cache_read_input_tokens} and {@code cache_creation_input_tokens} (outside its input tokens, so
   * added to them). Cache counts that cannot be right (more than the prompt) are left out, not the reply.
   */
  public static TokenCounts tokens(ChatResponse response) {
    TokenUsage usage = response.tokenUsage();
    if (usage == null) {
      return TokenCounts.UNREPORTED;
    }
    TokenCounts plain = TokenCounts.of(usage.inputTokenCount(), usage.outputTokenCount(), usage.totalTokenCount());
    try {
      if (usage instanceof AnthropicTokenUsage anthropic) {
        return TokenCounts.ofCachedApart(anthropic.inputTokenCount(), anthropic.outputTokenCount(),
            anthropic.cacheReadInputTokens(), anthropic.cacheCreationInputTokens());
      }
      if (usage instanceof OpenAiTokenUsage openAi && openAi.inputTokensDetails() != null) {
        return plain.withCacheRead(openAi.inputTokensDetails().cachedTokens());
      }
    } catch (IllegalArgumentException e) {
      LOG.warn("AGENTLOOP-042 The model endpoint reported prompt cache counts that do not fit its prompt tokens ({});"
          + " left out, so its calls show no cached tokens. Nothing to do, unless costs look wrong: then compare with"
          + " the provider's bill", usage);
    }
    return plain;
  }

  /**
   * The model a reply is priced and counted by: the one AgentLoop asked for where it names one (the
   * name the operator configured, and so the one a price table knows), else the one the reply names.
   */
  /** What the provider said of its response: its id and the model that wrote it. */
  public static ModelReply.Response response(ChatResponse response) {
    return new ModelReply.Response(response.id(), response.modelName());
  }

  public static String model(ChatResponse response, String asked) {
    if (asked != null && !asked.isBlank()) {
      return asked;
    }
    String answered = response.modelName();
    return answered == null || answered.isBlank() ? null : answered;
  }

  /**
   * Why the reply stopped. LangChain4j maps both OpenAI's {@code length} and Anthropic's
   * {@code max_tokens} to {@link FinishReason#LENGTH}, which is what marks a reply as cut; the word
   * recorded is the provider's own where the adapter could read it, else LangChain4j's.
   *
   * @param raw the provider's own word, {@code null} when the adapter could not read it
   * @param limit what a cut reply's limit was, e.g. {@code max tokens 1024}
   * @param remedy which setting raises it
   */
  public static StopReason stopReason(ChatResponse response, String raw, String limit, String remedy) {
    FinishReason finish = response.finishReason();
    String value = raw != null && !raw.isBlank() ? raw
        : finish == null ? "" : finish.name().toLowerCase(Locale.ROOT);
    return finish == FinishReason.LENGTH ? StopReason.cut(value, limit, remedy) : StopReason.of(value);
  }

  /** The text at {@code pointer} in a reply's raw JSON body, or {@code null} when it has none. */
  public static String field(String body, String pointer) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode value = JSON.readTree(body).at(pointer);
      return value.isTextual() ? value.asText() : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static ToolCall toolCall(ToolExecutionRequest request) {
    return new ToolCall(request.id(), request.name(), request.arguments());
  }
}
