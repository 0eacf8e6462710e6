package dev.agentloop.llm.anthropic;

import dev.agentloop.llm.ChatModel;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ModelRequest;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;

/**
 * A {@link ChatModel} for Anthropic's Messages API ({@code tool_use} / {@code tool_result} blocks).
 * LangChain4j's client blocks, so calls run on a bounded pool of their own; its own retries are off
 * because AgentLoop's resilience layer and the external-task retries decide. Extended thinking, when
 * given a budget, comes back as the reply's {@link ModelReply#reasoning()}, never as its text. The
 * API key goes only into the client's {@code x-api-key} header. Thread-safe.
 */
public class AnthropicMessagesChatModel implements ChatModel {

  private final AnthropicChatModel client;
  private final ExecutorService pool;
  private final String endpoint;
  private final String apiKey;

  /**
   * @param thinkingBudgetTokens tokens for extended thinking; 0: none
   * @throws IllegalArgumentException when the thinking budget does not fit into {@code maxTokens}
   */
  public AnthropicMessagesChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      int maxTokens, int thinkingBudgetTokens, ExecutorService pool) {
    if (thinkingBudgetTokens > 0 && thinkingBudgetTokens >= maxTokens) {
      throw new IllegalArgumentException("agentloop.llm.anthropic.thinking-budget-tokens (" + thinkingBudgetTokens
          + ") must be less than max-tokens (" + maxTokens + ")");
    }
    AnthropicChatModel.AnthropicChatModelBuilder builder = AnthropicChatModel.builder()
        .baseUrl(baseUrl)
        .apiKey(apiKey == null || apiKey.isBlank() ? "not-set" : apiKey)
        .modelName(model)
        .timeout(timeout)
        .maxTokens(maxTokens)
        .returnThinking(true)
        .maxRetries(0);
    if (thinkingBudgetTokens > 0) {
      // Anthropic accepts no temperature other than 1 with thinking on
      builder.thinkingType("enabled").thinkingBudgetTokens(thinkingBudgetTokens);
    } else {
      builder.temperature(temperature);
    }
    this.client = builder.build();
    this.pool = pool;
    this.endpoint = "anthropic:" + baseUrl;
    this.apiKey = apiKey;
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    ChatRequest chatRequest = AnthropicWireMapping.toChatRequest(request);
    return CompletableFuture.supplyAsync(() -> call(chatRequest), pool);
  }

  private ModelReply call(ChatRequest chatRequest) {
    try {
      ChatResponse response = client.chat(chatRequest);
      return AnthropicWireMapping.toModelReply(response);
    } catch (RuntimeException e) {
      throw new CompletionException(AnthropicErrors.classify(endpoint, apiKey, e));
    }
  }
}
