package dev.agentloop.internal.llm.anthropic;

import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
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
 * given a budget, comes back as the reply's {@link ModelReply#reasoning()}, never as its text; the
 * thinking block of a turn that called tools is sent back with its tool results, as Anthropic
 * requires (see {@link ThinkingBlocks}). The API key goes only into the client's {@code x-api-key}
 * header. Thread-safe.
 */
public class AnthropicMessagesChatModel implements ChatModel {

  private final AnthropicChatModel client;
  /** For a tool turn whose thinking block is not at hand; the same client when thinking is off. */
  private final AnthropicChatModel withoutThinking;
  private final ThinkingBlocks thinking = new ThinkingBlocks(10_000);
  private final ExecutorService pool;
  private final String endpoint;
  private final String apiKey;
  private final int maxTokens;
  private final String model;

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
    this.withoutThinking = builder(baseUrl, apiKey, model, timeout, maxTokens).temperature(temperature).build();
    // Anthropic accepts no temperature other than 1 with thinking on
    this.client = thinkingBudgetTokens == 0 ? withoutThinking : builder(baseUrl, apiKey, model, timeout, maxTokens)
        .thinkingType("enabled").thinkingBudgetTokens(thinkingBudgetTokens).sendThinking(true).build();
    this.pool = pool;
    this.endpoint = "anthropic:" + baseUrl;
    this.apiKey = apiKey;
    this.maxTokens = maxTokens;
    this.model = model;
  }

  private static AnthropicChatModel.AnthropicChatModelBuilder builder(String baseUrl, String apiKey, String model,
      Duration timeout, int maxTokens) {
    return AnthropicChatModel.builder()
        .httpClientBuilder(ErrorKeepingHttpClient.builder())
        .baseUrl(baseUrl)
        .apiKey(apiKey == null || apiKey.isBlank() ? "not-set" : apiKey)
        .modelName(model)
        .timeout(timeout)
        .maxTokens(maxTokens)
        .returnThinking(true)
        // the system prompt's block ends the tools and instructions, which every call of a run sends again
        .cacheSystemMessages(true)
        .maxRetries(0);
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  /** Anthropic's tokenizer makes more tokens of the same text than OpenAI's: about one per 3.5 characters. */
  @Override
  public int estimateTokens(String text) {
    return (int) Math.ceil(text.length() / 3.5);
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    boolean plain = client == withoutThinking || AnthropicWireMapping.lacksThinkingOfLastToolTurn(request, thinking);
    String answerTool = AnswerTool.nameFor(request);
    ChatRequest chatRequest = AnthropicWireMapping.toChatRequest(request, plain ? ThinkingBlocks.NONE : thinking,
        answerTool, plain);
    AnthropicChatModel chosen = plain ? withoutThinking : client;
    return CompletableFuture.supplyAsync(() -> call(chosen, chatRequest, answerTool), pool);
  }

  private ModelReply call(AnthropicChatModel chosen, ChatRequest chatRequest, String answerTool) {
    try {
      ChatResponse response = chosen.chat(chatRequest);
      AnthropicWireMapping.rememberThinking(response, thinking);
      return AnthropicWireMapping.toModelReply(response, maxTokens, model, answerTool);
    } catch (RuntimeException e) {
      throw new CompletionException(AnthropicErrors.classify(endpoint, apiKey, e));
    }
  }
}
