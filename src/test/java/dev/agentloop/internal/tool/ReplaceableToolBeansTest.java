package dev.agentloop.internal.tool;

import dev.agentloop.internal.config.ToolSettings;

import dev.agentloop.internal.config.ToolConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.tool.builtin.CalculatorTool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The tool beans an application may replace with its own: the built-in tools (by type) and the tool
 * threads (by name, {@code agentLoopToolPool}). AgentLoop's configuration is processed after the
 * application's, as its auto-configuration is in a host.
 */
class ReplaceableToolBeansTest {

  private final ApplicationContextRunner agentLoop = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ToolConfiguration.class))
      .withBean(ToolSettings.class, () -> new ToolSettings(Duration.ofSeconds(30), 8, null, null,
          new ToolSettings.HttpGet(List.of(), 200_000, Duration.ofSeconds(10)),
          new ToolSettings.ReadDocument("./documents", 100_000), null, null));

  @Test
  void should_run_tools_on_the_applications_pool_when_it_has_one_of_that_name() {
    agentLoop.withUserConfiguration(HostPool.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBeansOfType(ExecutorService.class)).containsOnlyKeys("agentLoopToolPool");
      assertThat(threadOf(context.getBean("agentLoopToolPool", ExecutorService.class))).startsWith("host-tool-");
    });
  }

  @Test
  void should_bring_its_own_pool_and_tools_when_the_application_has_none() {
    agentLoop.run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(CalculatorTool.class);
      assertThat(threadOf(context.getBean("agentLoopToolPool", ExecutorService.class))).startsWith("agentloop-tool-");
    });
  }

  @Test
  void should_keep_the_applications_calculator_instead_of_the_built_in_one() {
    agentLoop.withUserConfiguration(HostCalculator.class).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(CalculatorTool.class);
      assertThat(context.getBean(CalculatorTool.class)).isSameAs(context.getBean("hostCalculator"));
      assertThat(context.getBean(ToolRegistry.class).find("calculator")).containsSame(context.getBean(CalculatorTool.class));
    });
  }

  private static String threadOf(ExecutorService pool) throws Exception {
    return pool.submit(() -> Thread.currentThread().getName()).get();
  }

  @Configuration(proxyBeanMethods = false)
  static class HostPool {

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService agentLoopToolPool() {
      AtomicInteger threads = new AtomicInteger();
      return Executors.newCachedThreadPool(task -> new Thread(task, "host-tool-" + threads.incrementAndGet()));
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class HostCalculator {

    @Bean
    CalculatorTool hostCalculator() {
      return new CalculatorTool();
    }
  }
}
