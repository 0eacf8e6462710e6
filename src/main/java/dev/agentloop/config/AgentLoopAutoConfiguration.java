package dev.agentloop.config;

import dev.agentloop.agent.AgentConfiguration;
import dev.agentloop.agent.compose.ChildRuns;
import dev.agentloop.agent.definition.AgentDiagramRules;
import dev.agentloop.agent.loop.RemoteToolTasks;
import dev.agentloop.agent.loop.RunTimeRanOut;
import dev.agentloop.agent.run.RunLifecycle;
import dev.agentloop.llm.LlmConfiguration;
import dev.agentloop.resilience.ResilienceConfiguration;
import dev.agentloop.resume.ResumeConfiguration;
import dev.agentloop.review.ReviewConfiguration;
import dev.agentloop.review.Reviews;
import dev.agentloop.security.SecurityConfiguration;
import dev.agentloop.telemetry.DecisionSpans;
import dev.agentloop.telemetry.RunTraces;
import dev.agentloop.telemetry.TelemetryConfiguration;
import dev.agentloop.telemetry.ToolSpans;
import dev.agentloop.tool.ToolConfiguration;
import dev.agentloop.trace.TraceConfiguration;
import dev.agentloop.trace.retention.TraceRetention;
import dev.agentloop.web.WebConfiguration;
import dev.agentloop.worker.TaskArrivals;
import dev.agentloop.worker.WorkerConfiguration;
import org.camunda.bpm.spring.boot.starter.CamundaBpmAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Brings AgentLoop into a Camunda 7 Spring Boot application: step store, tools, model, the guards of
 * model and tool calls, agent handlers, reviews, embedded worker, security, REST API and the engine
 * plugin that recognises agent processes and deploys AgentLoop's forms and default agent. It changes
 * nothing else of the application; {@code agentloop.enabled=false} switches all of it off. (The
 * Cockpit plugin comes through Camunda's plugin SPI, see {@code dev.agentloop.cockpit}.)
 */
@AutoConfiguration(after = CamundaBpmAutoConfiguration.class)
@ConditionalOnProperty(prefix = "agentloop", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(AgentLoopProperties.class)
@Import({FeatureSettings.class, TraceConfiguration.class, ToolConfiguration.class, LlmConfiguration.class, ResilienceConfiguration.class,
    AgentConfiguration.class, ReviewConfiguration.class, ResumeConfiguration.class, WorkerConfiguration.class,
    SecurityConfiguration.class,
    WebConfiguration.class, TelemetryConfiguration.class})
public class AgentLoopAutoConfiguration {

  AgentLoopAutoConfiguration() {
    HostFeatures.report(AgentLoopAutoConfiguration.class.getClassLoader());
  }

  @Bean
  AgentLoopEnginePlugin agentLoopEnginePlugin(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews,
      AgentDiagramRules rules, RemoteToolTasks remoteToolTasks, ChildRuns childRuns, RunTimeRanOut runTimeRanOut,
      TraceRetention retention, AgentLoopProperties properties) {
    // workers get rights on agents only where AgentLoop's fence keeps them to tool tasks
    return new AgentLoopEnginePlugin(lifecycle, arrivals, reviews, rules, remoteToolTasks, childRuns, runTimeRanOut,
        retention, properties.security().secureEngineRest(), properties.database().h2EngineIndex());
  }

  /** Runs as traces: the listeners that store a run's trace context and make spans of decisions and remote calls. */
  @Bean
  TelemetryEnginePlugin agentLoopTelemetryEnginePlugin(RunTraces traces, DecisionSpans decisions, ToolSpans tools) {
    return new TelemetryEnginePlugin(new TelemetryParseListener(traces, decisions, tools));
  }

  @Bean
  AgentLoopDeployment agentLoopDeployment(AgentLoopProperties properties) {
    return AgentLoopDeployment.load(properties.deployment().defaultAgent());
  }
}
