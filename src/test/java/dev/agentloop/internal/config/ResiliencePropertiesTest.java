package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.resilience.BreakerSettings;
import dev.agentloop.internal.resilience.ResilienceSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/** The shipped defaults of agentloop.resilience bind, and a tool's own breaker settings override them. */
class ResiliencePropertiesTest {

  @Test
  void should_bind_the_shipped_defaults_and_a_tools_own_breaker_under_its_exact_name() throws Exception {
    Map<String, Object> properties = new HashMap<>();
    PropertySource<?> defaults = new YamlPropertySourceLoader()
        .load("defaults", new ClassPathResource(AgentLoopDefaults.RESOURCE)).get(0);
    for (String name : ((org.springframework.core.env.EnumerablePropertySource<?>) defaults).getPropertyNames()) {
      properties.put(name, defaults.getProperty(name));
    }
    properties.put("agentloop.resilience.tool-breakers.[http_get].failure-threshold", "3");
    properties.put("agentloop.resilience.tool-breakers.[http_get].failure-executions", "5");
    properties.put("agentloop.resilience.tool-breakers.[http_get].delay", "PT1M");
    properties.put("agentloop.resilience.tool-breakers.[http_get].success-threshold", "1");

    ResilienceSettings resilience = new Binder(new MapConfigurationPropertySource(properties))
        .bind("agentloop.resilience", Bindable.of(ResilienceSettings.class)).get();

    assertThat(resilience.toolBreaker()).isEqualTo(new BreakerSettings(20, 30, Duration.ofSeconds(30), 2));
    assertThat(resilience.toolBreakers()).containsOnlyKeys("http_get");
    assertThat(resilience.toolBreakers().get("http_get").failureThreshold()).isEqualTo(3);
    assertThat(resilience.retry().maxAttempts()).isEqualTo(3);
    assertThat(resilience.transientPatterns()).hasSize(2).allSatisfy(p -> assertThat(p).contains("\\b"));
    assertThat(resilience.unknownErrors()).isEqualTo(ResilienceSettings.UnknownErrors.PERSISTENT);
  }
}
