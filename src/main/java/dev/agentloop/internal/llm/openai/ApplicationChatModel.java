package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.llm.langchain4j.ReplyMapping;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;

/**
 * The application's own LangChain4j chat model ({@code agentloop.llm.provider=langchain4j}), e.g. the
 * one LangChain4j's Spring Boot starter makes from the application's configuration, behind AgentLoop's
 * port: the same message mapping and error classification as the OpenAI-compatible adapter (it lives
 * beside it for that), calls on AgentLoop's bounded pool since LangChain4j's client blocks. Its own
 * retries are the application's settings.
 */
public class ApplicationChatModel implements ChatModel {

  private final dev.langchain4j.model.chat.ChatModel model;
  private final ExecutorService pool;
  private final String endpoint;

  public ApplicationChatModel(dev.langchain4j.model.chat.ChatModel model, ExecutorService pool) {
    this.model = model;
    this.pool = pool;
    this.endpoint = "langchain4j:" + model.getClass().getSimpleName();
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        ChatResponse response = model.chat(WireMapping.toChatRequest(request));
        return WireMapping.toModelReply(response, ReplyMapping.stopReason(response, null,
            "the maxTokens of the application's LangChain4j ChatModel", "raise the maxTokens of the application's"
                + " LangChain4j ChatModel bean (e.g. langchain4j.open-ai.chat-model.max-tokens)"),
            model.defaultRequestParameters() == null ? null : model.defaultRequestParameters().modelName());
      } catch (RuntimeException e) {
        throw new CompletionException(ProviderErrors.classify(endpoint, null, e));
      }
    }, pool);
  }
}
