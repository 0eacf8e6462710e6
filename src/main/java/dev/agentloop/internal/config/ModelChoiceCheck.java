package dev.agentloop.internal.config;

import dev.agentloop.internal.llm.LlmSettings;


import dev.agentloop.spi.ChatModel;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Stops the start, before any bean is made, when AgentLoop would have to make the model and the application
 * chose none: AgentLoop has no default model, since one the application forgot to configure would be a fake
 * that answers quietly. An application with a {@link ChatModel} bean of its own needs no provider. Checked
 * this early so that the message is the failure the start reports, not the end of a chain of beans.
 */
final class ModelChoiceCheck implements BeanFactoryPostProcessor {

  static final String NO_PROVIDER = "agentloop.llm.provider is not set: AgentLoop has no default model. Choose the"
      + " model the agents use: agentloop.llm.provider=openai (any OpenAI-compatible endpoint; with"
      + " agentloop.llm.base-url, agentloop.llm.model and the key in the environment variable AGENTLOOP_LLM_API_KEY),"
      + " anthropic (with agentloop.llm.model and AGENTLOOP_LLM_API_KEY), langchain4j (your application's own"
      + " LangChain4j ChatModel bean) or scripted (answers from agentloop.llm.scripted.script, for tests and demos);"
      + " or declare a bean of type dev.agentloop.spi.ChatModel of your own";
  static final String NO_SCRIPT = "agentloop.llm.provider=scripted needs agentloop.llm.scripted.script, the location"
      + " of the script the model answers from, e.g. classpath:scripts/my-script.json";

  private final Environment environment;

  ModelChoiceCheck(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
    if (!makesTheModel(beanFactory)) {
      return;
    }
    Binder binder = Binder.get(environment);
    LlmSettings.Provider provider = binder.bind("agentloop.llm.provider", LlmSettings.Provider.class).orElse(null);
    if (provider == null) {
      throw new IllegalStateException(NO_PROVIDER);
    }
    if (provider == LlmSettings.Provider.SCRIPTED
        && binder.bind("agentloop.llm.scripted.script", String.class).orElse("").isBlank()) {
      throw new IllegalStateException(NO_SCRIPT);
    }
  }

  /** Whether {@link LlmConfiguration}'s model bean is there, i.e. the application has none of its own. */
  private static boolean makesTheModel(ConfigurableListableBeanFactory beanFactory) {
    for (String name : beanFactory.getBeanNamesForType(ChatModel.class, true, false)) {
      BeanDefinition definition = beanFactory.getBeanDefinition(name);
      if (LlmConfiguration.class.getName().equals(definition.getFactoryBeanName())) {
        return true;
      }
    }
    return false;
  }
}
