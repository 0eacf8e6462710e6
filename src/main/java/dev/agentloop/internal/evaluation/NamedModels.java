package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.llm.anthropic.AnthropicMessagesChatModel;
import dev.agentloop.internal.llm.openai.OpenAiCompatibleChatModel;
import dev.agentloop.spi.ChatModel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Models other than the agents' own by name, on the configured provider's endpoint with its key and settings: what a
 * task that names another model (an evaluation's judge) calls. Only providers whose endpoint serves models by name
 * ({@code openai}, {@code anthropic}) have them. Their calls run on a small pool of their own. Thread-safe.
 */
class NamedModels implements AutoCloseable {

  private static final int THREADS = 2;

  private final LlmSettings llm;
  private final Map<String, ChatModel> models = new ConcurrentHashMap<>();
  private final ExecutorService pool;

  NamedModels(LlmSettings llm, ClassLoader classLoader) {
    this.llm = llm;
    this.pool = Executors.newFixedThreadPool(THREADS, new AgentLoopThreads("agentloop-named-model-", classLoader));
  }

  /**
   * The model of this name.
   *
   * @throws IllegalArgumentException when the configured provider serves no models by name
   */
  public ChatModel named(String model) {
    if (!servesByName()) {
      throw new IllegalArgumentException("a model by name needs agentloop.llm.provider openai or anthropic, where the"
          + " endpoint serves models by name; this application's agents use "
          + (llm.provider() == null ? "a ChatModel bean of its own" : "the provider " + llm.provider().name()
          .toLowerCase(java.util.Locale.ROOT)) + ": leave the model out to use the agents' own model");
    }
    return models.computeIfAbsent(model, this::make);
  }

  /** Whether the configured provider serves models by name. */
  public boolean servesByName() {
    return llm.provider() == LlmSettings.Provider.OPENAI || llm.provider() == LlmSettings.Provider.ANTHROPIC;
  }

  private ChatModel make(String model) {
    return llm.provider() == LlmSettings.Provider.OPENAI
        ? new OpenAiCompatibleChatModel(llm.baseUrl(), llm.apiKey(), model, llm.timeout(), llm.temperature(), pool)
        : new AnthropicMessagesChatModel(llm.anthropic().baseUrl(), llm.apiKey(), model, llm.timeout(),
            llm.temperature(), llm.anthropic().maxTokens(), 0, pool);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
