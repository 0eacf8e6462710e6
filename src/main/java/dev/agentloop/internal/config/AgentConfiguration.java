package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.AgentStartRights;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.compose.FailedChildRuns;
import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentDiagramRules;
import dev.agentloop.internal.agent.definition.AgentsAsTools;
import dev.agentloop.internal.agent.loop.ActHandler;
import dev.agentloop.internal.agent.loop.CallDispatcher;
import dev.agentloop.internal.agent.loop.CallReplay;
import dev.agentloop.internal.agent.loop.CallerBudgets;
import dev.agentloop.internal.agent.loop.CostMeter;
import dev.agentloop.internal.agent.loop.EscapeChecks;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.agent.loop.PlanHandler;
import dev.agentloop.internal.agent.loop.PromptTimers;
import dev.agentloop.internal.agent.loop.RemoteToolTasks;
import dev.agentloop.internal.agent.loop.RepeatedSideEffects;
import dev.agentloop.internal.agent.loop.Router;
import dev.agentloop.internal.agent.loop.RunTimeRanOut;
import dev.agentloop.internal.agent.loop.TaskOutcomes;
import dev.agentloop.internal.agent.loop.ThinkHandler;
import dev.agentloop.internal.agent.loop.Thinking;
import dev.agentloop.internal.agent.run.RunLifecycle;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.resilience.LoopDetector;
import dev.agentloop.internal.resilience.ModelGuard;
import dev.agentloop.internal.resilience.ResilienceMetrics;
import dev.agentloop.internal.telemetry.ModelSpans;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolCallGuard;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import dev.agentloop.internal.trace.ConversationClaims;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.worker.ExternalTaskWorker;
import dev.agentloop.internal.worker.TopicHandler;
import dev.agentloop.spi.ChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The agent's services and the handlers of its topics. */
@Configuration(proxyBeanMethods = false)
public class AgentConfiguration {

  @Bean
  RunLifecycle runLifecycle(StepStore store, AgentDefinitions definitions, ApplicationEventPublisher events,
      TreeCharges charges) {
    return new RunLifecycle(store, definitions, events, charges);
  }

  @Bean
  RunTimeRanOut runTimeRanOut(Escapes escapes, AgentDefinitions definitions, ApplicationEventPublisher events) {
    return new RunTimeRanOut(escapes, definitions, events::publishEvent);
  }

  @Bean
  FailedChildRuns failedChildRuns(AgentDefinitions definitions, ApplicationEventPublisher events) {
    return new FailedChildRuns(definitions, events::publishEvent);
  }

  /** The budgets of the runs whose calls led to a run: charged as it spends, guarded before its calls go out. */
  @Bean
  CallerBudgets callerBudgets(TreeCharges charges, BudgetCheck budgets, ApplicationEventPublisher events) {
    return new CallerBudgets(charges, budgets, events::publishEvent);
  }

  /** An engine plugin: the run-time budget's timer fires within seconds of its deadline, not up to a minute late. */
  @Bean
  PromptTimers agentLoopPromptTimers() {
    return new PromptTimers();
  }

  @Bean
  AgentDefinitions agentDefinitions(ObjectProvider<RepositoryService> repository, AgentDefaults defaults) {
    return new AgentDefinitions(repository, defaults);
  }

  /** The topics are those this application has handlers for; remote workers serve the same topics. */
  @Bean
  AgentDiagramRules agentDiagramRules(ToolRegistry tools, ToolApprovals approvals, List<TopicHandler<?>> handlers,
      AgentDefaults defaults, AgentsAsTools agents) {
    return new AgentDiagramRules(tools, approvals, handlers.stream().map(TopicHandler::topic).toList(), defaults,
        agents);
  }

  @Bean
  RunService agentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions, RunInsights insights,
      DecisionLog decisions, ModelPrices prices, ObjectProvider<ExternalTaskWorker<?>> worker,
      ConversationClaims claims, ModelQueue agentLoopModelQueue) {
    return new RunService(engine, store, definitions, insights, decisions, prices, worker, claims,
        agentLoopModelQueue);
  }

  /**
   * Here rather than with the tools: a tool's result is cut to what a step may hold
   * ({@code agentloop.agent.max-step-chars}). Calls go through the guard of package resilience
   * (retries, circuit breakers) when there is one.
   */
  @Bean
  ToolRunner toolRunner(ToolRegistry registry, ExecutorService agentLoopToolPool, ToolSettings tools,
      AgentDefaults defaults, ObjectProvider<ToolCallGuard> guard) {
    return new ToolRunner(registry, agentLoopToolPool, tools.timeout(), tools.maxConcurrent(), defaults.maxStepChars(),
        guard.getIfAvailable(() -> ToolCallGuard.NONE));
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
  EscapeChecks escapeChecks(LoopDetector detector, BudgetCheck budgets, ToolRegistry tools, ResilienceMetrics metrics,
      CallerBudgets callers) {
    return new EscapeChecks(detector, budgets, tools, metrics, callers);
  }

  @Bean
  TaskOutcomes taskOutcomes(AgentDefinitions definitions, StepStore store, DecisionLog decisions,
      Escapes escapes, ModelPrices prices, ObjectProvider<MeterRegistry> registry, CallerBudgets callers) {
    return new TaskOutcomes(definitions, store, decisions, escapes,
        new CostMeter(prices, registry.getIfAvailable(SimpleMeterRegistry::new)), callers);
  }

  /** Model calls go through the guard: retries, the endpoint's circuit breaker, a time-out; each a span where traced. */
  @Bean
  PlanHandler planHandler(AgentDefinitions definitions, LoopStateReader reader, ChatModel model, ModelGuard guard,
      ModelSpans spans, EscapeChecks checks, TaskOutcomes completions) {
    return new PlanHandler(definitions, reader, spans.traced(guard.guard(model)), checks, completions);
  }

  @Bean
  ThinkHandler thinkHandler(AgentDefinitions definitions, LoopStateReader reader, ChatModel model, ModelGuard guard,
      ModelSpans spans, ToolRegistry tools, Router router, EscapeChecks checks, RepeatedSideEffects repeats,
      TaskOutcomes completions) {
    return new ThinkHandler(definitions, reader,
        new Thinking(spans.traced(guard.guard(model)), tools, router, checks, repeats),
        completions);
  }

  @Bean
  RemoteToolTasks remoteToolTasks(AgentDefinitions definitions, LoopStateReader reader, StepStore store,
      ToolRegistry tools, CallerBudgets callers) {
    return new RemoteToolTasks(definitions, reader, store, tools, callers);
  }

  /** Every deployed agent as a tool of the agents that name it: a source of the tool registry. */
  @Bean
  AgentsAsTools agentsAsTools(ObjectProvider<ProcessEngine> engine, AgentDefaults defaults, ToolRegistry tools) {
    AgentsAsTools agents = new AgentsAsTools(engine, defaults);
    tools.addSource(agents);
    return agents;
  }

  @Bean
  ChildRuns childRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, AgentDefaults defaults, TreeCharges charges, CallerBudgets callers) {
    return new ChildRuns(definitions, reader, store, tools, engine, defaults.maxAgentDepth(), charges, callers,
        new AgentStartRights(engine));
  }

  /** The calls of an evaluation's candidate runs are replayed where the evaluations are there to replay them. */
  @Bean
  ActHandler actHandler(AgentDefinitions definitions, LoopStateReader reader, ToolRegistry tools, ToolRunner runner,
      Router router, RemoteToolTasks remoteToolTasks, ChildRuns childRuns, EscapeChecks checks,
      TaskOutcomes completions, ToolSpans spans, ObjectProvider<CallReplay> replay) {
    return new ActHandler(definitions, reader, new CallDispatcher(tools, runner, router, remoteToolTasks, childRuns,
        checks, spans, replay.getIfAvailable(() -> CallReplay.NONE)), completions);
  }
}
