package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resilience.Escapes;
import java.time.Duration;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The run-time budget, a boundary timer on the agent loop, against a model that never answers. */
@AgentLoopTest
class RunTimeRanOutTest {

  private static final String AGENT = "short-budget-agent";
  private static final Duration BUDGET = Duration.ofSeconds(3);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

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
}
