package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.llm.ChatModel;
import dev.agentloop.resilience.Budgets;
import dev.agentloop.resilience.Escapes;
import dev.agentloop.resilience.LoopDetector;
import dev.agentloop.resilience.ModelGuard;
import dev.agentloop.resilience.ResilienceMetrics;
import dev.agentloop.tool.ToolApprovals;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.RunInsights;
import dev.agentloop.trace.StepStore;
import dev.agentloop.worker.TopicHandler;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The agent's services and the handlers of its topics. */
@Configuration(proxyBeanMethods = false)
public class AgentConfiguration {

  @Bean
  RunLifecycle runLifecycle(StepStore store, AgentDefinitions definitions) {
    return new RunLifecycle(store, definitions);
  }

  @Bean
  RunTimeBudget runTimeBudget(Escapes escapes) {
    return new RunTimeBudget(escapes);
  }

  @Bean
  AgentDefinitions agentDefinitions(ObjectProvider<RepositoryService> repository, AgentLoopProperties properties) {
    return new AgentDefinitions(repository, properties.agent());
  }

  /** The topics are those this application has handlers for; remote workers serve the same topics. */
  @Bean
  AgentDiagramRules agentDiagramRules(ToolRegistry tools, ToolApprovals approvals, List<TopicHandler> handlers,
      AgentLoopProperties properties) {
    return new AgentDiagramRules(tools, approvals, handlers.stream().map(TopicHandler::topic).toList(),
        properties.agent());
  }

  @Bean
  AgentRuns agentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions, RunInsights insights) {
    return new AgentRuns(engine, store, definitions, insights);
  }

  @Bean
  LoopStateReader loopStateReader(StepStore store) {
    return new LoopStateReader(store);
  }

  @Bean
  Router router(ToolApprovals approvals, ToolRegistry tools) {
    return new Router(approvals, tools);
  }

  @Bean
  RepeatedSideEffects repeatedSideEffects(StepStore store, ToolRegistry tools) {
    return new RepeatedSideEffects(store, tools);
  }

  @Bean
  EscapeChecks escapeChecks(LoopDetector detector, Budgets budgets, ToolRegistry tools, ResilienceMetrics metrics) {
    return new EscapeChecks(detector, budgets, tools, metrics);
  }

  /** Model calls go through the guard: retries, the endpoint's circuit breaker, a time-out. */
  @Bean
  PlanHandler planHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ChatModel model,
      ModelGuard guard) {
    return new PlanHandler(definitions, reader, store, guard.guard(model));
  }

  @Bean
  ThinkHandler thinkHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ChatModel model,
      ModelGuard guard, ToolRegistry tools, Router router, EscapeChecks checks, Escapes escapes,
      RepeatedSideEffects repeats) {
    return new ThinkHandler(definitions, reader, store, guard.guard(model), tools, router, checks, escapes, repeats);
  }

  @Bean
  RemoteToolCalls remoteToolCalls(AgentDefinitions definitions, LoopStateReader reader, StepStore store,
      ToolRegistry tools) {
    return new RemoteToolCalls(definitions, reader, store, tools);
  }

  @Bean
  ActHandler actHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ToolRunner runner, Router router, RemoteToolCalls remoteCalls, EscapeChecks checks, Escapes escapes) {
    return new ActHandler(definitions, reader, store, tools, runner, router, remoteCalls, checks, escapes);
  }
}
