package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.DeploymentSettings;
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
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import dev.agentloop.internal.evaluation.EvaluationSettings;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of AgentLoop, bound from {@code agentloop.*}. The defaults live in
 * {@code agentloop-defaults.yaml} (shipped in the jar, lowest precedence), so an application that
 * embeds AgentLoop gets them too and overrides only what it needs. Agent-specific settings
 * (prompt, tools, budgets) can be overridden per agent in its BPMN diagram.
 *
 * <p>Only the binding lives here: each feature owns its settings record, with their validation and
 * descriptions, and gets it from {@link FeatureSettings}; no other package imports this one.
 *
 * @param enabled whether AgentLoop is active at all; `false`: its auto-configuration adds nothing
 *     to the application and its Cockpit tabs do not show
 */
@Validated
@ConfigurationProperties("agentloop")
public record AgentLoopProperties(
    boolean enabled,
    @NotNull @Valid @NestedConfigurationProperty ApiSettings api,
    @NotNull @Valid @NestedConfigurationProperty A2aSettings a2a,
    @NotNull @Valid @NestedConfigurationProperty DeploymentSettings deployment,
    @NotNull @Valid @NestedConfigurationProperty SecuritySettings security,
    @NotNull @Valid @NestedConfigurationProperty LlmSettings llm,
    @NotNull @Valid @NestedConfigurationProperty WorkerSettings worker,
    @NotNull @Valid @NestedConfigurationProperty AgentDefaults agent,
    @NotNull @Valid @NestedConfigurationProperty ToolSettings tools,
    @NotNull @Valid @NestedConfigurationProperty ResilienceSettings resilience,
    @NotNull @Valid @NestedConfigurationProperty MigrationSettings migration,
    @NotNull @Valid @NestedConfigurationProperty DatabaseSettings database,
    @NotNull @Valid @NestedConfigurationProperty TelemetrySettings telemetry,
    @NotNull @Valid @NestedConfigurationProperty RunEventsSettings events,
    @NotNull @Valid @NestedConfigurationProperty McpEndpointSettings mcp,
    @NotNull @Valid @NestedConfigurationProperty EvaluationSettings evaluation) {}
