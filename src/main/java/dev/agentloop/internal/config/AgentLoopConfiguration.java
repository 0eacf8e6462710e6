package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.compose.FailedChildRuns;
import dev.agentloop.internal.agent.definition.AgentDiagramRules;
import dev.agentloop.internal.agent.loop.RemoteToolTasks;
import dev.agentloop.internal.agent.loop.RunTimeRanOut;
import dev.agentloop.internal.agent.run.RunLifecycle;
import dev.agentloop.internal.evaluation.EvaluationConfiguration;
import dev.agentloop.internal.events.EventsConfiguration;
import dev.agentloop.internal.mcp.McpConfiguration;
import dev.agentloop.internal.resilience.ResilienceConfiguration;
import dev.agentloop.internal.resume.AgentMigrations;
import dev.agentloop.internal.resume.MigrationBatchHandler;
import dev.agentloop.internal.resume.PendingMigrations;
import dev.agentloop.internal.resume.ResumeConfiguration;
import dev.agentloop.internal.review.ReviewConfiguration;
import dev.agentloop.internal.review.Reviews;
import dev.agentloop.internal.security.ReservedForms;
import dev.agentloop.internal.security.SecurityConfiguration;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.telemetry.RunTraces;
import dev.agentloop.internal.telemetry.TelemetryConfiguration;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.trace.retention.TraceRetention;
import dev.agentloop.internal.web.WebConfiguration;
import dev.agentloop.internal.web.a2a.A2aConfiguration;
import dev.agentloop.internal.worker.TaskArrivals;
import dev.agentloop.internal.worker.WorkerConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * What {@link dev.agentloop.autoconfigure.AgentLoopAutoConfiguration} brings: step store, tools, model, the
 * guards of model and tool calls, agent handlers, reviews, embedded worker, security, the engine plugin that
 * recognises agent processes and deploys AgentLoop's forms and default agent, and in a servlet web application
 * the REST API. (The Cockpit plugin comes through Camunda's plugin SPI with the webapps, see
 * {@code dev.agentloop.internal.cockpit}.)
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AgentLoopProperties.class)
@Import({FeatureSettings.class, TraceConfiguration.class, ToolConfiguration.class, LlmConfiguration.class, ResilienceConfiguration.class,
    AgentConfiguration.class, ReviewConfiguration.class, ResumeConfiguration.class, WorkerConfiguration.class,
    SecurityConfiguration.class,
    WebConfiguration.class, A2aConfiguration.class, TelemetryConfiguration.class, EventsConfiguration.class,
    McpConfiguration.class, EvaluationConfiguration.class, WithoutServletWeb.class})
public class AgentLoopConfiguration {

  AgentLoopConfiguration() {
    HostFeatures.report(AgentLoopConfiguration.class.getClassLoader());
  }

  @Bean
  AgentLoopEnginePlugin agentLoopEnginePlugin(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews,
      AgentDiagramRules rules, RemoteToolTasks remoteToolTasks, ChildRuns childRuns, RunTimeRanOut runTimeRanOut,
      FailedChildRuns failedChildRuns, TraceRetention retention, ReservedForms reservedForms,
      AgentLoopProperties properties) {
    // workers get rights on agents only where AgentLoop's fence keeps them to tool tasks
    return new AgentLoopEnginePlugin(lifecycle, arrivals, reviews, rules, remoteToolTasks, childRuns, runTimeRanOut,
        failedChildRuns, retention, reservedForms, properties.security().secureEngineRest(),
        properties.database().h2EngineIndex());
  }

  /** The ids of AgentLoop's forms, which only its own deployment deploys. */
  @Bean
  ReservedForms reservedForms(AgentLoopDeployment deployment) {
    return new ReservedForms(deployment.formIds());
  }

  /** Runs as traces: the listeners that store a run's trace context and make spans of decisions and remote calls. */
  @Bean
  TelemetryEnginePlugin agentLoopTelemetryEnginePlugin(RunTraces traces, DecisionSpans decisions, ToolSpans tools) {
    return new TelemetryEnginePlugin(new TelemetryParseListener(traces, decisions, tools));
  }

  /** Runs moved between an agent's versions: the batch type, and the listeners that move a busy run when it waits. */
  @Bean
  MigrationEnginePlugin agentLoopMigrationEnginePlugin(ObjectProvider<AgentMigrations> migrations,
      PendingMigrations pending) {
    return new MigrationEnginePlugin(new MigrationBatchHandler(migrations::getObject), pending);
  }

  @Bean
  AgentLoopDeployment agentLoopDeployment(AgentLoopProperties properties) {
    return AgentLoopDeployment.load(properties.deployment());
  }
}
