package dev.agentloop.internal.llm.openai;

import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
import dev.agentloop.internal.llm.LlmSettings.AnswerFormatType;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;

/**
 * A {@link ChatModel} for OpenAI-compatible endpoints. LangChain4j's client blocks, so calls run on
 * a bounded pool of their own ({@code agentloop.llm.max-concurrent-calls}); LangChain4j's own
 * retries are off because AgentLoop's resilience layer and the external-task retries decide.
 * The API key goes only into the client's Authorization header. A reasoning model's thinking
 * ({@code reasoning_content}, {@code <think>} blocks) is returned as {@link ModelReply#reasoning()},
 * never as the reply's text, and is not sent back to the model.
 */
public class OpenAiCompatibleChatModel implements ChatModel {

  private final OpenAiChatModel client;
  private final ExecutorService pool;
  private final String endpoint;
  private final String apiKey;
  private final String model;
  private final AnswerFormatType answerFormat;

  /** A model that asks for answer schemas as {@code json_schema}. */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      ExecutorService pool) {
    this(baseUrl, apiKey, model, timeout, temperature, pool, AnswerFormatType.JSON_SCHEMA);
  }

  /**
   * @param apiKey may be blank for local servers (Ollama, vLLM) that do not check it
   * @param answerFormat how an agent's answer schema is asked for ({@code agentloop.llm.answer-format})
   */
  public OpenAiCompatibleChatModel(String baseUrl, String apiKey, String model, Duration timeout, Double temperature,
      ExecutorService pool, AnswerFormatType answerFormat) {
    this.client = OpenAiChatModel.builder()
        .httpClientBuilder(ErrorKeepingHttpClient.builder().answers(AnswerRepairs::argumentsAsText))
        .baseUrl(baseUrl)
        .apiKey(apiKey == null || apiKey.isBlank() ? "not-needed" : apiKey)
        .modelName(model)
        .timeout(timeout)
        .temperature(temperature)
        .maxRetries(0)
        // reasoning_content becomes AiMessage.thinking(); it is never sent back (sendThinking stays off)
        .returnThinking(true)
        .build();
    this.pool = pool;
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
    return CompletableFuture.supplyAsync(() -> call(chatRequest), pool);
  }

  private ModelReply call(ChatRequest chatRequest) {
    try {
      ChatResponse response = client.chat(chatRequest);
      return WireMapping.toModelReply(response, WireMapping.stopReason(response), model);
    } catch (ContentFilteredException e) {
      return WireMapping.refused(e, model);
    } catch (RuntimeException e) {
      throw new CompletionException(ProviderErrors.classify(endpoint, apiKey, e));
    }
  }
}
