package dev.agentloop.internal.config;

import dev.agentloop.internal.llm.ModelPrices;


import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.llm.ModelText;
import dev.agentloop.internal.llm.Streaming;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.llm.limits.ModelQueue;
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
import java.util.concurrent.ScheduledThreadPoolExecutor;
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

  /**
   * The queue in front of the model endpoint, with the limits its provider sets ({@code agentloop.llm.limits}).
   * Exists whoever makes the model: an application's own model's calls queue too.
   */
  @Bean(destroyMethod = "close")
  ModelQueue agentLoopModelQueue(LlmSettings llm, ResourceLoader resources) {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(1, new AgentLoopThreads("agentloop-model-timer-", resources.getClassLoader()));
    timer.setRemoveOnCancelPolicy(true);
    int maxInFlight = llm.limits().maxInFlight(llm.provider(), llm.maxConcurrentCalls());
    LOG.info("model calls under way at once: {}{}{}", maxInFlight == 0 ? "no limit" : "at most " + maxInFlight,
        llm.limits().requestsPerMinute() == 0 ? "" : ", " + llm.limits().requestsPerMinute() + " requests per minute",
        llm.limits().tokensPerMinute() == 0 ? "" : ", " + llm.limits().tokensPerMinute() + " tokens per minute");
    return new ModelQueue(maxInFlight, llm.limits().requestsPerMinute(), llm.limits().tokensPerMinute(), timer);
  }

  @Bean
  @ConditionalOnMissingBean
  ChatModel chatModel(LlmSettings llm, ResourceLoader resources,
      ObjectProvider<dev.langchain4j.model.chat.ChatModel> applicationModels, ModelQueue agentLoopModelQueue,
      ObjectProvider<ModelText> modelTexts) {
    ClassLoader classLoader = resources.getClassLoader();
    // the events of runs, which read the text, are built after the model: asked for at the first piece
    ModelText text = ModelText.later(modelTexts::getIfAvailable);
    Streaming streaming = llm.stream() ? Streaming.to(text) : Streaming.OFF;
    ChatModel model = switch (llm.provider()) {
      case SCRIPTED -> new ScriptedChatModel(readScript(resources, llm.scripted().script()), replyThreads(classLoader),
          text);
      case OPENAI -> new OpenAiCompatibleChatModel(llm.baseUrl(), llm.apiKey(), llm.model(), llm.timeout(),
          llm.temperature(), replyThreads(classLoader), agentLoopModelQueue::answered, llm.answerFormat(), streaming);
      case ANTHROPIC -> new AnthropicMessagesChatModel(llm.anthropic().baseUrl(), llm.apiKey(), llm.model(),
          llm.timeout(), llm.temperature(), llm.anthropic().maxTokens(), llm.anthropic().thinkingBudgetTokens(),
          replyThreads(classLoader), agentLoopModelQueue::answered, streaming);
      case LANGCHAIN4J -> new ApplicationChatModel(applicationModel(applicationModels),
          Executors.newFixedThreadPool(llm.maxConcurrentCalls(), new AgentLoopThreads("agentloop-model-",
              classLoader)), llm.answerFormat());
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
   * The threads model replies are read on, and with them the handlers' continuations: AgentLoop's own, with the
   * application's class loader, never an HTTP client's or the JDK's common pool. They only read replies, so as
   * many as there are cores: the calls under way wait on sockets or timers, not on these.
   */
  private static ExecutorService replyThreads(ClassLoader classLoader) {
    return Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
        new AgentLoopThreads("agentloop-model-", classLoader));
  }
}
