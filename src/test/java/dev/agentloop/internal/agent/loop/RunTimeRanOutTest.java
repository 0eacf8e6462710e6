package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resilience.Escapes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Job;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The run-time budget, a boundary timer on the agent loop, against a model that never answers; and its escape counted
 * once, also when the engine runs the timer's job again after the first try rolled back.
 */
@AgentLoopTest
class RunTimeRanOutTest {

  private static final String AGENT = "short-budget-agent";
  private static final String LONG_AGENT = "long-budget-agent";
  private static final Duration BUDGET = Duration.ofSeconds(3);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired MeterRegistry meters;
  @Autowired PlatformTransactionManager transactions;

  @BeforeEach
  void deployAnAgentWithAShortRunTimeBudget() {
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.ASK_HUMAN_TIMEOUT, "PT1S", AgentSettings.MAX_RUN_TIME, BUDGET.toString()));
  }

  @Test
  void should_escape_within_seconds_of_the_run_time_budget_when_the_model_never_answers() {
    // given a run whose model call never returns
    long started = System.nanoTime();
    String run = engine.getRuntimeService()
        .startProcessInstanceByKey(AGENT, ReactAgentProcess.QUESTION.with("model-hangs: anything")).getId();

    // when its run-time budget runs out
    Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    Duration escapedAfter = Duration.ofNanos(System.nanoTime() - started);

    // then it escapes to a person, saying why, within seconds of the budget: not after the job
    // executor's idle back-off of up to a minute
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_CODE.name()))
        .isEqualTo(Escapes.BUDGET_EXHAUSTED);
    assertThat(escapedAfter).isGreaterThanOrEqualTo(BUDGET).isLessThan(BUDGET.plus(PromptTimers.MAX_WAIT)
        .plusSeconds(10));
  }

  @Test
  void should_count_the_escape_once_when_the_timer_job_runs_again_after_its_transaction_rolled_back() {
    // given a run whose run-time timer is due much later, so that only this test runs its job
    TestAgent.deployVariant(engine, LONG_AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.ASK_HUMAN_TIMEOUT, "PT1S", AgentSettings.MAX_RUN_TIME, "PT1H"));
    String run = engine.getRuntimeService()
        .startProcessInstanceByKey(LONG_AGENT, ReactAgentProcess.QUESTION.with("model-hangs: count me once")).getId();
    Job timer = await().atMost(Runs.PATIENCE).until(() -> engine.getManagementService().createJobQuery()
        .processInstanceId(run).activityId(ReactAgentProcess.RUN_TIME_USED_UP).singleResult(), job -> job != null);
    double before = escapes();

    // when the job runs in a transaction that rolls back (as after an optimistic-locking failure), then again
    assertThatThrownBy(() -> new TransactionTemplate(transactions).executeWithoutResult(status -> {
      engine.getManagementService().executeJob(timer.getId());
      throw new IllegalStateException("a conflict at commit");
    })).hasMessage("a conflict at commit");
    assertThat(escapes()).as("nothing counted for a try that rolled back").isEqualTo(before);
    engine.getManagementService().executeJob(timer.getId());

    // then the run escaped once, and the meter says so once
    Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    assertThat(escapes()).isEqualTo(before + 1);
  }

  private double escapes() {
    Counter counter = meters.find("agentloop.escapes").tags("code", Escapes.BUDGET_EXHAUSTED, "source",
        ReactAgentProcess.RUN_TIME_USED_UP).counter();
    return counter == null ? 0 : counter.count();
  }
}
