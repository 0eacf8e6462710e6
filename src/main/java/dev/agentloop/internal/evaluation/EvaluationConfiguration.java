package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.resilience.ModelGuard;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.security.EvaluationAccess;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.spi.ChatModel;
import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The evaluations: their tables, their lane, the replay of their candidates' calls (the {@code CallReplay} the agent
 * loop asks), their judge, and the one door {@link Evaluations}.
 */
@Configuration(proxyBeanMethods = false)
public class EvaluationConfiguration {

  @Bean
  EvaluationStore evaluationStore(DataSource dataSource) {
    return new EvaluationStore(new JdbcTemplate(dataSource));
  }

  @Bean
  ReplayedCalls evaluationReplay(EvaluationStore evaluations, StepStore store, ToolRegistry tools) {
    return new ReplayedCalls(evaluations, store, tools);
  }

  @Bean(destroyMethod = "close")
  NamedModels namedModels(LlmSettings llm, ResourceLoader resources) {
    return new NamedModels(llm, resources.getClassLoader());
  }

  @Bean(destroyMethod = "close")
  EvaluationLane evaluationLane(EvaluationSettings settings, EvaluationStore evaluations, RunService runs,
      StepStore store, DecisionLog decisions, ReviewTasks tasks, Conversations conversations, ResumeService resume,
      ProcessEngine engine, ToolRegistry tools, PlatformTransactionManager transactions, ReplayedCalls replay,
      Judge judge, CandidateCleanup cleanup, ResourceLoader resources) {
    CasePlayer player = new CasePlayer(runs, store, decisions, tasks, conversations, resume, engine, evaluations,
        tools, new TransactionTemplate(transactions), replay);
    return new EvaluationLane(settings, new CaseEnds(player, new CaseChecks(judge), evaluations, cleanup),
        resources.getClassLoader());
  }

  @Bean
  CandidateCleanup candidateCleanup(ProcessEngine engine, EvaluationStore evaluations, EvaluationSettings settings) {
    return new CandidateCleanup(engine, evaluations, settings.retention());
  }

  @Bean
  Judge evaluationJudge(ChatModel chatModel, NamedModels named, ModelGuard guard, ModelPrices prices) {
    return new Judge(guard.guard(chatModel), named, guard, prices);
  }

  @Bean
  Evaluations evaluations(EvaluationStore evaluations, StepStore store, ProcessEngine engine, EvaluationAccess access,
      EvaluationLane lane, Judge judge, EvaluationSettings settings, PlatformTransactionManager transactions) {
    return new Evaluations(evaluations, store, new CandidateDeployments(engine), access, lane, judge, settings,
        new TransactionTemplate(transactions));
  }

  /**
   * Once the tables are there: evaluations a stopped node left running are marked as cut off, and then, now and every
   * hour, the candidates nothing needs any more and the evaluations past their retention go.
   */
  @Bean
  ApplicationListener<ApplicationReadyEvent> staleEvaluations(Evaluations evaluations, EvaluationLane lane,
      CandidateCleanup cleanup) {
    return ready -> {
      evaluations.interruptStale();
      lane.everyHour(cleanup::sweep);
    };
  }
}
