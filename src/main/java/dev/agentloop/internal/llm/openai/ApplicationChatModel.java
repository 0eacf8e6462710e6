package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.llm.LlmSettings.AnswerFormatType;
import dev.agentloop.internal.llm.langchain4j.ReplyMapping;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's own LangChain4j chat model ({@code agentloop.llm.provider=langchain4j}), e.g. the
 * one LangChain4j's Spring Boot starter makes from the application's configuration, behind AgentLoop's
 * port: the same message mapping and error classification as the OpenAI-compatible adapter (it lives
 * beside it for that), calls on AgentLoop's bounded pool since LangChain4j's client blocks. Its own
 * retries are the application's settings. An agent's answer schema goes as LangChain4j's {@code ResponseFormat};
 * a model whose provider module supports none is asked without it from then on (the schema stays in the
 * instructions, and every answer is validated), with one warning.
 */
public class ApplicationChatModel implements ChatModel {

  private static final Logger LOG = LoggerFactory.getLogger(ApplicationChatModel.class);

  private final dev.langchain4j.model.chat.ChatModel model;
  private final ExecutorService pool;
  private final String endpoint;
  private final AnswerFormatType answerFormat;
  /** Set once the model refused a response format: it is not sent again. */
  private volatile boolean formatUnsupported;

  public ApplicationChatModel(dev.langchain4j.model.chat.ChatModel model, ExecutorService pool) {
    this(model, pool, AnswerFormatType.JSON_SCHEMA);
  }

  /** @param answerFormat how an agent's answer schema is asked for ({@code agentloop.llm.answer-format}) */
  public ApplicationChatModel(dev.langchain4j.model.chat.ChatModel model, ExecutorService pool,
      AnswerFormatType answerFormat) {
    this.model = model;
    this.pool = pool;
    this.endpoint = "langchain4j:" + model.getClass().getSimpleName();
    this.answerFormat = answerFormat;
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  private ChatResponse respond(ModelRequest request) {
    try {
      return model.chat(WireMapping.toChatRequest(request, answerFormat));
    } catch (UnsupportedFeatureException e) {
      if (request.answer() == null) {
        throw e;
      }
      formatUnsupported = true;
      LOG.warn("AGENTLOOP-402 the application's LangChain4j model {} takes no response format ({}): agents' answer"
          + " schemas go to it in their instructions only, and every answer is still validated. Use a model whose"
          + " provider module supports JSON schemas to have the provider hold answers to them", endpoint, e.getMessage());
      return model.chat(WireMapping.toChatRequest(withoutAnswerFormat(request), answerFormat));
    }
  }

  private static ModelRequest withoutAnswerFormat(ModelRequest request) {
    return new ModelRequest(request.purpose(), request.messages(), request.tools(), request.run(),
        request.stablePrefix());
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        ChatResponse response = respond(request.answer() == null || !formatUnsupported ? request
            : withoutAnswerFormat(request));
        return WireMapping.toModelReply(response, ReplyMapping.stopReason(response, null,
            "the maxTokens of the application's LangChain4j ChatModel", "raise the maxTokens of the application's"
                + " LangChain4j ChatModel bean (e.g. langchain4j.open-ai.chat-model.max-tokens)"),
            model.defaultRequestParameters() == null ? null : model.defaultRequestParameters().modelName());
      } catch (ContentFilteredException e) {
        return WireMapping.refused(e, null);
      } catch (RuntimeException e) {
        throw new CompletionException(ProviderErrors.classify(endpoint, null, e));
      }
    }, pool);
  }
}
