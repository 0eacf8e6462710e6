package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.DeploymentSettings;
import dev.agentloop.internal.evaluation.EvaluationSettings;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.resilience.ResilienceSettings;
import dev.agentloop.internal.resume.MigrationSettings;
import dev.agentloop.internal.security.ApiSettings;
import dev.agentloop.internal.security.SecuritySettings;
import dev.agentloop.internal.events.RunEventsSettings;
import dev.agentloop.internal.mcp.McpEndpointSettings;
import dev.agentloop.internal.telemetry.TelemetrySettings;
import dev.agentloop.internal.trace.DatabaseSettings;
import dev.agentloop.internal.web.a2a.A2aSettings;
import dev.agentloop.internal.worker.WorkerSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Hands each feature its own settings record out of the bound {@link AgentLoopProperties}, so that the
 * features' configurations take {@code LlmSettings}, {@code ToolSettings} … and never import
 * {@code config}: dependencies run from config to the features only.
 */
@Configuration(proxyBeanMethods = false)
class FeatureSettings {

  @Bean
  ApiSettings agentLoopApiSettings(AgentLoopProperties properties) {
    return properties.api();
  }

  @Bean
  DeploymentSettings agentLoopDeploymentSettings(AgentLoopProperties properties) {
    return properties.deployment();
  }

  @Bean
  A2aSettings agentLoopA2aSettings(AgentLoopProperties properties) {
    return properties.a2a();
  }

  @Bean
  SecuritySettings agentLoopSecuritySettings(AgentLoopProperties properties) {
    return properties.security();
  }

  @Bean
  LlmSettings agentLoopLlmSettings(AgentLoopProperties properties) {
    return properties.llm();
  }

  @Bean
  WorkerSettings agentLoopWorkerProperties(AgentLoopProperties properties) {
    return properties.worker();
  }

  @Bean
  AgentDefaults agentLoopAgentDefaults(AgentLoopProperties properties) {
    return properties.agent();
  }

  @Bean
  ToolSettings agentLoopToolSettings(AgentLoopProperties properties) {
    return properties.tools();
  }

  @Bean
  ResilienceSettings agentLoopResilienceSettings(AgentLoopProperties properties) {
    return properties.resilience();
  }

  @Bean
  MigrationSettings agentLoopMigrationSettings(AgentLoopProperties properties) {
    return properties.migration();
  }

  @Bean
  DatabaseSettings agentLoopDatabaseSettings(AgentLoopProperties properties) {
    return properties.database();
  }

  @Bean
  EvaluationSettings agentLoopEvaluationSettings(AgentLoopProperties properties) {
    return properties.evaluation();
  }

  @Bean
  TelemetrySettings agentLoopTelemetrySettings(AgentLoopProperties properties) {
    return properties.telemetry();
  }

  @Bean
  RunEventsSettings agentLoopEventsSettings(AgentLoopProperties properties) {
    return properties.events();
  }

  @Bean
  McpEndpointSettings agentLoopMcpSettings(AgentLoopProperties properties) {
    return properties.mcp();
  }
}
