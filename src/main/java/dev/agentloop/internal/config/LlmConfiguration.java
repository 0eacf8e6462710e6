package dev.agentloop.internal.config;

import dev.agentloop.internal.llm.ModelPrices;


import dev.agentloop.internal.llm.LlmSettings;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.llm.anthropic.AnthropicMessagesChatModel;
import dev.agentloop.internal.llm.openai.ApplicationChatModel;
import dev.agentloop.internal.llm.openai.OpenAiCompatibleChatModel;
import dev.agentloop.internal.llm.scripted.Script;
import dev.agentloop.internal.llm.scripted.ScriptedChatModel;
import dev.agentloop.spi.ChatModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/** The chat model chosen by {@code agentloop.llm.provider}; a {@link ChatModel} bean of your own wins. */
@Configuration(proxyBeanMethods = false)
public class LlmConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger(LlmConfiguration.class);

  /** Refuses the start before any bean is made when AgentLoop would make the model and none is chosen. */
  @Bean
  static ModelChoiceCheck agentLoopModelChoiceCheck(Environment environment) {
    return new ModelChoiceCheck(environment);
  }

  /** The price table, empty unless the application sets {@code agentloop.llm.prices}. */
  @Bean
  ModelPrices modelPrices(LlmSettings llm) {
    return ModelPrices.of(llm);
  }

  @Bean
  @ConditionalOnMissingBean
  ChatModel chatModel(LlmSettings llm, ResourceLoader resources,
      ObjectProvider<dev.langchain4j.model.chat.ChatModel> applicationModels) {
    ExecutorService pool = modelPool(llm.maxConcurrentCalls(), resources.getClassLoader());
    ChatModel model = switch (llm.provider()) {
      case SCRIPTED -> new ScriptedChatModel(readScript(resources, llm.scripted().script()), pool);
      case OPENAI -> new OpenAiCompatibleChatModel(llm.baseUrl(), llm.apiKey(), llm.model(), llm.timeout(),
          llm.temperature(), pool);
      case ANTHROPIC -> new AnthropicMessagesChatModel(llm.anthropic().baseUrl(), llm.apiKey(), llm.model(),
          llm.timeout(), llm.temperature(), llm.anthropic().maxTokens(), llm.anthropic().thinkingBudgetTokens(), pool);
      case LANGCHAIN4J -> new ApplicationChatModel(applicationModel(applicationModels), pool);
    };
    LOG.info("agents use the {} model at {}", llm.provider().name().toLowerCase(), model.endpoint());
    return model;
  }

  private static dev.langchain4j.model.chat.ChatModel applicationModel(
      ObjectProvider<dev.langchain4j.model.chat.ChatModel> models) {
    dev.langchain4j.model.chat.ChatModel model = models.getIfUnique();
    if (model == null) {
      throw new IllegalStateException("agentloop.llm.provider=langchain4j needs exactly one LangChain4j ChatModel bean"
          + " in the application (or one marked @Primary), e.g. from LangChain4j's Spring Boot starter; found "
          + models.stream().count());
    }
    return model;
  }

  private static Script readScript(ResourceLoader resources, String location) {
    try (InputStream in = resources.getResource(location).getInputStream()) {
      return ScriptedChatModel.read(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the model script " + location + ": " + e.getMessage(), e);
    }
  }

  /**
   * The threads model replies complete on, and with them the handlers' continuations: AgentLoop's
   * own, with the application's class loader, never an HTTP client's or the JDK's common pool.
   */
  private static ExecutorService modelPool(int threads, ClassLoader classLoader) {
    return Executors.newFixedThreadPool(threads, new AgentLoopThreads("agentloop-model-", classLoader));
  }
}
