package dev.agentloop.internal.llm.anthropic;

import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.async.Cancellations;
import dev.agentloop.internal.llm.AsyncWire;
import dev.agentloop.internal.llm.StreamedText;
import dev.agentloop.internal.llm.Streaming;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

/**
 * A {@link ChatModel} for Anthropic's Messages API ({@code tool_use} / {@code tool_result} blocks).
 * LangChain4j writes the request and reads the reply; {@link AsyncWire} carries it on the JDK's asynchronous
 * HTTP client, so a call holds no thread while the endpoint works on it. LangChain4j's own retries are off
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
  private final AsyncWire wire;
  private final String endpoint;
  private final String apiKey;
  private final int maxTokens;
  private final String model;
  private final Streaming streaming;

  /**
   * @param thinkingBudgetTokens tokens for extended thinking; 0: none
   * @param replies where replies are read and the caller's continuations run
   * @throws IllegalArgumentException when the thinking budget does not fit into {@code maxTokens}
   */
  public AnthropicMessagesChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      int maxTokens, int thinkingBudgetTokens, Executor replies) {
    this(baseUrl, apiKey, model, timeout, temperature, maxTokens, thinkingBudgetTokens, replies,
        AsyncWire.Answers.NONE);
  }

  /** @param answers told of every answer's status and headers (the endpoint's rate limits) */
  public AnthropicMessagesChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      int maxTokens, int thinkingBudgetTokens, Executor replies, AsyncWire.Answers answers) {
    this(baseUrl, apiKey, model, timeout, temperature, maxTokens, thinkingBudgetTokens, replies, answers,
        Streaming.ON);
  }

  /**
   * @param answers told of every answer's status and headers (the endpoint's rate limits)
   * @param streaming whether replies are streamed ({@code agentloop.llm.stream}) and where their text goes meanwhile
   */
  public AnthropicMessagesChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      int maxTokens, int thinkingBudgetTokens, Executor replies, AsyncWire.Answers answers, Streaming streaming) {
    this.streaming = java.util.Objects.requireNonNull(streaming, "streaming");
    if (thinkingBudgetTokens > 0 && thinkingBudgetTokens >= maxTokens) {
      throw new IllegalArgumentException("agentloop.llm.anthropic.thinking-budget-tokens (" + thinkingBudgetTokens
          + ") must be less than max-tokens (" + maxTokens + ")");
    }
    this.wire = new AsyncWire(timeout, replies, UnaryOperator.identity(), answers);
    this.withoutThinking = builder(wire, baseUrl, apiKey, model, timeout, maxTokens).temperature(temperature).build();
    // Anthropic accepts no temperature other than 1 with thinking on
    this.client = thinkingBudgetTokens == 0 ? withoutThinking
        : builder(wire, baseUrl, apiKey, model, timeout, maxTokens)
            .thinkingType("enabled").thinkingBudgetTokens(thinkingBudgetTokens).sendThinking(true).build();
    this.endpoint = "anthropic:" + baseUrl;
    this.apiKey = apiKey;
    this.maxTokens = maxTokens;
    this.model = model;
  }

  private static AnthropicChatModel.AnthropicChatModelBuilder builder(AsyncWire wire, String baseUrl, String apiKey,
      String model, Duration timeout, int maxTokens) {
    return AnthropicChatModel.builder()
        .httpClientBuilder(wire.clientBuilder())
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
    if (!streaming.enabled()) {
      CompletableFuture<ChatResponse> exchange = wire.call(() -> chosen.chat(chatRequest));
      return Cancellations.passedBack(exchange.handle((response, error) -> reply(response, error, answerTool)),
          exchange);
    }
    StreamedText text = new StreamedText(streaming.text(), request);
    CompletableFuture<ChatResponse> exchange = wire.call(() -> chosen.chat(chatRequest),
        new AnthropicReplyStream(text::arrived));
    CompletableFuture<ModelReply> reply = exchange.handle((response, error) -> reply(response, error, answerTool));
    reply.whenComplete((done, failure) -> {
      if (failure != null) {
        text.failed(AsyncFailures.unwrap(failure));
      }
    });
    return Cancellations.passedBack(reply, exchange);
  }

  private ModelReply reply(ChatResponse response, Throwable error, String answerTool) {
    if (error != null) {
      Throwable failure = AsyncFailures.unwrap(error);
      if (failure instanceof CancellationException cancelled) {
        throw cancelled;
      }
      throw new CompletionException(AnthropicErrors.classify(endpoint, apiKey, failure instanceof RuntimeException
          runtime ? runtime : new RuntimeException(failure)));
    }
    try {
      AnthropicWireMapping.rememberThinking(response, thinking);
      return AnthropicWireMapping.toModelReply(response, maxTokens, model, answerTool);
    } catch (RuntimeException e) {
      throw new CompletionException(AnthropicErrors.classify(endpoint, apiKey, e));
    }
  }
}
