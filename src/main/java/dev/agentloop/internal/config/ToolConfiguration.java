package dev.agentloop.internal.config;


import dev.agentloop.internal.tool.ToolRegistry;

import dev.agentloop.internal.tool.ToolApprovals;

import dev.agentloop.internal.tool.RemoteTool;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.tool.builtin.CalculatorTool;
import dev.agentloop.internal.tool.builtin.CurrentTimeTool;
import dev.agentloop.internal.tool.builtin.HttpGetTool;
import dev.agentloop.internal.tool.builtin.ReadDocumentTool;
import dev.agentloop.internal.tool.a2a.A2aAgents;
import dev.agentloop.internal.tool.mcp.McpServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

/**
 * The built-in tools, the MCP servers, the registry of every {@link AgentTool} bean, remote tool and
 * MCP tool, approvals, and the runner's pool.
 */
@Configuration(proxyBeanMethods = false)
public class ToolConfiguration {

  @Bean
  @ConditionalOnMissingBean
  CalculatorTool calculatorTool() {
    return new CalculatorTool();
  }

  @Bean
  @ConditionalOnMissingBean
  CurrentTimeTool currentTimeTool() {
    return new CurrentTimeTool();
  }

  @Bean
  @ConditionalOnMissingBean
  HttpGetTool httpGetTool(ToolSettings tools) {
    ToolSettings.HttpGet settings = tools.httpGet();
    return new HttpGetTool(settings.allowedHosts(), settings.maxBytes(), settings.timeout());
  }

  @Bean
  @ConditionalOnMissingBean
  ReadDocumentTool readDocumentTool(ToolSettings tools) {
    ToolSettings.ReadDocument settings = tools.readDocument();
    return new ReadDocumentTool(Path.of(settings.folder()), settings.maxChars());
  }

  @Bean
  @ConditionalOnMissingBean
  AskHumanTool askHumanTool() {
    return new AskHumanTool();
  }

  /** The servers of {@code agentloop.tools.mcp}, connected (stdio ones started) once per node, stopped on shutdown. */
  @Bean(destroyMethod = "close")
  McpServers agentLoopMcpServers(ToolSettings tools) {
    return McpServers.start(tools.mcp(), tools.timeout());
  }

  /** The remote A2A agents of {@code agentloop.tools.a2a}, their cards read in the background. */
  @Bean(destroyMethod = "close")
  A2aAgents agentLoopA2aAgents(ToolSettings tools) {
    return A2aAgents.start(tools.a2a(), tools.timeout());
  }

  /**
   * The tool beans, the tools declared remote in {@code agentloop.tools.remote}, the remote A2A agents and the tools
   * of the MCP servers.
   */
  @Bean
  ToolRegistry toolRegistry(List<AgentTool> tools, ToolSettings settings, McpServers mcpServers, A2aAgents a2aAgents) {
    List<AgentTool> all = new ArrayList<>(tools);
    all.addAll(a2aAgents.tools());
    settings.remote().forEach((name, remote) ->
        all.add(RemoteTool.of(name, remote.description(), remote.parameters(), remote.sideEffects())));
    return new ToolRegistry(all, mcpServers.sources());
  }

  @Bean
  ToolApprovals toolApprovals(ToolRegistry registry, ToolSettings tools) {
    return new ToolApprovals(registry, tools.approval());
  }

  /**
   * The tool threads, elastic: the runner's bulkhead per tool ({@code agentloop.tools.max-concurrent}
   * calls of each tool at once) bounds them, so that one tool's hanging calls cannot take the threads
   * of the others. Idle threads end after a minute. An application replaces it with an
   * {@link ExecutorService} bean of this name (virtual threads, or one that carries its own context into
   * the tools); it is then the application's to shut down.
   */
  @Bean(destroyMethod = "shutdownNow")
  @ConditionalOnMissingBean(name = "agentLoopToolPool")
  ExecutorService agentLoopToolPool(ResourceLoader context) {
    // tools run, and their results continue, with the application's class loader (see AgentLoopThreads)
    return Executors.newCachedThreadPool(new AgentLoopThreads("agentloop-tool-", context.getClassLoader()));
  }

  /** Only where the application has Spring Boot's actuator: AgentLoop does not bring it into a host. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class McpServersHealth {

    /**
     * The {@code mcpServers} component of {@code /actuator/health}: UP while every MCP server is
     * connected, else DEGRADED (HTTP 200: the node works, some tools do not) naming those that are not,
     * with why and each server's state ({@code connecting}, {@code connected}, {@code down}).
     */
    @Bean
    HealthIndicator mcpServersHealthIndicator(McpServers mcpServers) {
      return () -> {
        Map<String, String> down = mcpServers.notConnected();
        if (down.isEmpty()) {
          return Health.up().withDetail("servers", mcpServers.size()).build();
        }
        return Health.status(new Status("DEGRADED", "MCP servers not connected: " + String.join(", ", down.keySet())))
            .withDetail("notConnected", down).withDetail("states", mcpServers.states()).build();
      };
    }
  }
}
