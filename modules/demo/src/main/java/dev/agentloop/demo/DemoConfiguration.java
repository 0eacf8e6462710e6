package dev.agentloop.demo;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.annotation.Validated;

/**
 * What the demo adds to AgentLoop, as an application that embeds it would: its users and a tool of its
 * own, under keys of its own ({@code demo.*}), since they are no settings of AgentLoop.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoConfiguration.DemoProperties.class)
public class DemoConfiguration {

  @Bean
  @ConditionalOnProperty(name = "demo.users.enabled", havingValue = "true")
  DemoUsers demoUsers(ProcessEngine engine, CamundaBpmProperties camunda) {
    return new DemoUsers(engine, camunda.getAdminUser() == null ? null : camunda.getAdminUser().getId());
  }

  /** The tool that fails at random, for trying the escape route by hand; only with {@code demo.tools.flaky.enabled}. */
  @Bean
  @ConditionalOnProperty(name = "demo.tools.flaky.enabled", havingValue = "true")
  FlakyTool flakyTool(DemoProperties demo) {
    return FlakyTool.of(demo.tools().flaky());
  }

  /**
   * The demo's settings, bound from {@code demo.*} (defaults in the demo's application.yaml).
   *
   * @param users the demo users
   * @param tools the demo's tools
   */
  @Validated
  @ConfigurationProperties("demo")
  record DemoProperties(@DefaultValue @NotNull @Valid @NestedConfigurationProperty DemoSettings users,
      @DefaultValue @NotNull @Valid Tools tools) {

    /**
     * The demo's tools.
     *
     * @param flaky the tool that fails at random
     */
    record Tools(@DefaultValue @NotNull @Valid @NestedConfigurationProperty FlakyTool.Settings flaky) {}
  }
}
