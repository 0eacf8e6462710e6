package dev.agentloop.internal.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ClassPathResource;

/**
 * Adds {@code agentloop-defaults.yaml} as the last property source, so every {@code agentloop.*}
 * key has a default whether AgentLoop runs stand-alone or embedded in another application, and refuses
 * {@code agentloop.*} keys that AgentLoop does not know ({@link UnknownSettings}) unless it is switched off.
 * Sets no key outside {@code agentloop.*}.
 */
public class AgentLoopDefaults implements EnvironmentPostProcessor {

  static final String RESOURCE = "agentloop-defaults.yaml";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    try {
      new YamlPropertySourceLoader()
          .load("agentloop-defaults", new ClassPathResource(RESOURCE))
          .forEach(source -> environment.getPropertySources().addLast(source));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    if (environment.getProperty("agentloop.enabled", Boolean.class, true)) {
      new UnknownSettings(KnownSettings.of(AgentLoopProperties.class)).check(environment);
    }
  }
}
