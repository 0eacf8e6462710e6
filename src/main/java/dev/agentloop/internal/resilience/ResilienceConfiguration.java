package dev.agentloop.internal.resilience;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.tool.ToolCallGuard;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

/** The guards of model and tool calls, the breakers, loop detection, budgets and escapes, built once from the settings. */
@Configuration(proxyBeanMethods = false)
public class ResilienceConfiguration {

  @Bean
  ErrorClassifier errorClassifier(ResilienceSettings resilience) {
    return new ErrorClassifier(resilience.transientPatterns(), resilience.persistentPatterns(),
        resilience.unknownErrors());
  }

  /** Without a registry of the application's (no actuator), the meters are kept in memory only. */
  @Bean
  ResilienceMetrics resilienceMetrics(ObjectProvider<MeterRegistry> registry) {
    return new ResilienceMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
  }

  /**
   * A breaker for every tool (for every MCP server, whose tools share one) and for the model endpoint
   * from the start, so that all of them are listed. Settings for a tool or MCP server nobody
   * registered fail the start.
   */
  @Bean
  Breakers breakers(ResilienceSettings resilience, ErrorClassifier classifier, ResilienceMetrics metrics,
      ToolRegistry tools, ChatModel model) {
    resilience.toolBreakers().keySet().stream().filter(name -> !tools.contains(name) && !tools.sources().contains(name))
        .findFirst().ifPresent(name -> {
          throw new IllegalArgumentException("agentloop.resilience.tool-breakers names an unknown tool '" + name
              + "'; registered tools: " + String.join(", ", tools.names()) + "; MCP servers: "
              + String.join(", ", tools.sources()));
        });
    Breakers breakers = new Breakers(resilience.toolBreaker(), resilience.toolBreakers(), resilience.modelBreaker(),
        classifier, metrics);
    tools.names().stream().filter(name -> tools.find(name).flatMap(AgentTool::mcpServer).isEmpty())
        .forEach(breakers::tool);
    tools.sources().forEach(breakers::mcpServer);
    // an MCP server that is not connected shows as an open breaker, from the start on
    tools.onSourceAvailability(breakers::mcpServerAvailability);
    breakers.model(model.endpoint());
    return breakers;
  }

  /**
   * Where the guards' attempts, retry delays and time-outs run: Failsafe would use the JDK's common
   * pool and a timer thread of its own, whose context class loader is not the application's. Two
   * threads do: they only start calls on the model and tool pools and schedule the next attempt.
   */
  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService agentLoopResilienceScheduler(ResourceLoader context) {
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(2, new AgentLoopThreads("agentloop-resilience-", context.getClassLoader()));
    scheduler.setRemoveOnCancelPolicy(true);
    return scheduler;
  }

  @Bean
  ToolCallGuard toolCallGuard(Breakers breakers, ErrorClassifier classifier, ResilienceSettings resilience,
      ResilienceMetrics metrics, ScheduledExecutorService agentLoopResilienceScheduler) {
    return new ToolGuard(breakers, classifier, resilience.retry(), metrics,
        agentLoopResilienceScheduler);
  }

  /**
   * The adapter's own time-out plus a second: its message names the endpoint, ours catches adapters that have none.
   * As many calls at once as the model has threads: a call never waits for a thread inside its time-out.
   */
  @Bean
  ModelGuard modelGuard(Breakers breakers, ErrorClassifier classifier, ResilienceSettings resilience,
      LlmSettings llm, ResilienceMetrics metrics, ScheduledExecutorService agentLoopResilienceScheduler) {
    return new ModelGuard(breakers, classifier, resilience.retry(), llm.timeout().plusSeconds(1),
        llm.maxConcurrentCalls(), metrics, agentLoopResilienceScheduler);
  }

  @Bean
  Escapes escapes(ResilienceMetrics metrics) {
    return new Escapes(metrics);
  }

  @Bean
  LoopDetector loopDetector(ResilienceSettings resilience) {
    return new LoopDetector(resilience.loopWindow(), resilience.loopMaxCycleLength());
  }

  @Bean
  BudgetCheck budgets(ResilienceSettings resilience) {
    return new BudgetCheck(resilience.finalAnswerAt());
  }

  /** Only where the application has Spring Boot's actuator: AgentLoop does not bring it into a host. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class BreakerHealth {

    @Bean
    BreakerHealthIndicator breakersHealthIndicator(Breakers breakers) {
      return new BreakerHealthIndicator(breakers);
    }
  }
}
