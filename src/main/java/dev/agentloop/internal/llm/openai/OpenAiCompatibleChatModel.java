package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.async.Cancellations;
import dev.agentloop.internal.llm.AsyncWire;
import dev.agentloop.internal.llm.StreamedText;
import dev.agentloop.internal.llm.Streaming;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.internal.llm.LlmSettings.AnswerFormatType;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * A {@link ChatModel} for OpenAI-compatible endpoints. LangChain4j writes the request and reads the reply;
 * {@link AsyncWire} carries it on the JDK's asynchronous HTTP client, so a call holds no thread while the
 * endpoint works on it. LangChain4j's own retries are off because AgentLoop's resilience layer and the
 * external-task retries decide. The API key goes only into the request's Authorization header. A reasoning
 * model's thinking ({@code reasoning_content}, {@code <think>} blocks) is returned as {@link ModelReply#reasoning()},
 * never as the reply's text, and is not sent back to the model. Thread-safe.
 */
public class OpenAiCompatibleChatModel implements ChatModel {

  private final AsyncWire wire;
  private final OpenAiChatModel client;
  private final String endpoint;
  private final String apiKey;
  private final String model;
  private final AnswerFormatType answerFormat;
  private final Streaming streaming;

  /**
   * A model that asks for answer schemas as {@code json_schema}.
   *
   * @param apiKey may be blank for local servers (Ollama, vLLM) that do not check it
   * @param replies where replies are read and the caller's continuations run
   */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      Executor replies) {
    this(baseUrl, apiKey, model, timeout, temperature, replies, AsyncWire.Answers.NONE, AnswerFormatType.JSON_SCHEMA);
  }

  /** @param answers told of every answer's status and headers (the endpoint's rate limits) */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      Executor replies, AsyncWire.Answers answers) {
    this(baseUrl, apiKey, model, timeout, temperature, replies, answers, AnswerFormatType.JSON_SCHEMA);
  }

  /**
   * @param answers told of every answer's status and headers (the endpoint's rate limits)
   * @param answerFormat how an agent's answer schema is asked for ({@code agentloop.llm.answer-format})
   */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      Executor replies, AsyncWire.Answers answers, AnswerFormatType answerFormat) {
    this(baseUrl, apiKey, model, timeout, temperature, replies, answers, answerFormat, Streaming.ON);
  }

  /**
   * @param answers told of every answer's status and headers (the endpoint's rate limits)
   * @param answerFormat how an agent's answer schema is asked for ({@code agentloop.llm.answer-format})
   * @param streaming whether replies are streamed ({@code agentloop.llm.stream}) and where their text goes meanwhile
   */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      Executor replies, AsyncWire.Answers answers, AnswerFormatType answerFormat, Streaming streaming) {
    this.streaming = Objects.requireNonNull(streaming, "streaming");
    this.wire = new AsyncWire(timeout, replies, AnswerRepairs::checked, answers);
    this.client = OpenAiChatModel.builder()
        .httpClientBuilder(wire.clientBuilder())
        .baseUrl(baseUrl)
        .apiKey(apiKey == null || apiKey.isBlank() ? "not-needed" : apiKey)
        .modelName(model)
        .timeout(timeout)
        .temperature(temperature)
        .maxRetries(0)
        // reasoning_content becomes AiMessage.thinking(); it is never sent back (sendThinking stays off)
        .returnThinking(true)
        .build();
    this.endpoint = "openai:" + baseUrl;
    this.apiKey = apiKey;
    this.model = model;
    this.answerFormat = answerFormat;
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    ChatRequest chatRequest = WireMapping.toWireRequest(request, answerFormat);
    if (!streaming.enabled()) {
      CompletableFuture<ChatResponse> exchange = wire.call(() -> client.chat(chatRequest));
      return Cancellations.passedBack(exchange.handle(this::reply), exchange);
    }
    StreamedText text = new StreamedText(streaming.text(), request);
    CompletableFuture<ChatResponse> exchange = wire.call(() -> client.chat(chatRequest),
        new OpenAiReplyStream(text::arrived));
    CompletableFuture<ModelReply> reply = exchange.handle(this::reply);
    reply.whenComplete((done, failure) -> {
      if (failure != null) {
        text.failed(AsyncFailures.unwrap(failure));
      }
    });
    return Cancellations.passedBack(reply, exchange);
  }

  private ModelReply reply(ChatResponse response, Throwable error) {
    if (error != null) {
      Throwable failure = AsyncFailures.unwrap(error);
      if (failure instanceof CancellationException cancelled) {
        throw cancelled;
      }
      if (failure instanceof ContentFilteredException filtered) {
        // a refusal of structured outputs, raised by LangChain4j while it read the answer: withheld, not failed
        return WireMapping.refused(filtered, model);
      }
      throw new CompletionException(ProviderErrors.classify(endpoint, apiKey, failure instanceof RuntimeException
          runtime ? runtime : new RuntimeException(failure)));
    }
    try {
      return WireMapping.toModelReply(response, WireMapping.stopReason(response), model);
    } catch (ContentFilteredException e) {
      return WireMapping.refused(e, model);
    } catch (RuntimeException e) {
      throw new CompletionException(ProviderErrors.classify(endpoint, apiKey, e));
    }
  }
}
