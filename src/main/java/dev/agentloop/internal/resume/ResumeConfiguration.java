package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.agent.loop.RepeatedSideEffects;
import dev.agentloop.internal.agent.loop.Router;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.MigrationLog;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.llm.limits.ModelQueue;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/** The resume services, sharing one trace surgery, and the migrations of runs between an agent's versions. */
@Configuration(proxyBeanMethods = false)
public class ResumeConfiguration {

  @Bean
  TraceSurgery traceSurgery(StepStore store, Router router, RepeatedSideEffects repeats) {
    return new TraceSurgery(store, router, repeats);
  }

  @Bean
  RunChanges runChanges(ProcessEngine engine, StepStore store, AgentDefinitions definitions,
      PlatformTransactionManager transactionManager) {
    return new RunChanges(engine, store, definitions, transactionManager);
  }

  @Bean
  ResumeService resumeService(ProcessEngine engine, StepStore store, LoopStateReader reader, TraceSurgery surgery,
      ToolRegistry tools, RunAccess access, RunChanges changes, DecisionLog decisions, AgentDefinitions definitions,
      ChildRuns agentCalls, RunRestarts restarts, DecisionSpans spans, Escapes escapes, ModelQueue agentLoopModelQueue) {
    return new ResumeService(engine, store, reader, surgery, new EditedContent(tools), access, changes, decisions,
        new ChildRunEdits(engine, store, definitions, agentCalls, restarts, changes), spans, escapes,
        agentLoopModelQueue);
  }

  @Bean
  RunRestarts runRestarts(ProcessEngine engine, StepStore store, AgentDefinitions definitions, TraceSurgery surgery,
      RepeatedSideEffects repeats, RunAccess access, RunChanges changes, TreeCharges charges) {
    return new RunRestarts(engine.getRuntimeService(), store, definitions, surgery, repeats, access, changes,
        charges);
  }

  @Bean
  AgentMigrations agentMigrations(ProcessEngine engine, RunAccess access, AgentDefinitions definitions, RunService runs,
      StepStore store, MigrationLog log, RunChanges changes, MigrationSettings settings, DecisionLog decisions,
      DecisionSpans spans, ApplicationEventPublisher events) {
    MigrationPlans plans = new MigrationPlans(engine.getRuntimeService(), engine.getRepositoryService());
    RunMoves moves = new RunMoves(engine.getRuntimeService(), decisions, spans, events);
    return new AgentMigrations(engine, access, new AgentVersions(engine, definitions, runs),
        new RunMigration(engine, store, definitions, plans, log, changes, moves), log, changes, settings);
  }

  /** Made before the engine (its listeners go into the engine plugin): the migrations are looked up at first use. */
  @Bean
  PendingMigrations pendingMigrations(MigrationLog log, ObjectProvider<AgentMigrations> migrations,
      MigrationSettings settings) {
    return new PendingMigrations(log, migrations::getObject, settings);
  }

  @Bean
  Conversations conversations(ProcessEngine engine, StepStore store, RunService runs, RunAccess access,
      RunChanges changes, DecisionLog decisions, DecisionSpans spans) {
    return new Conversations(engine, store, runs, access, changes, decisions, spans);
  }
}
