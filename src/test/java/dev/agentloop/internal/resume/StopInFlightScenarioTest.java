package dev.agentloop.internal.resume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.spi.ModelRequest.Purpose;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A person stops a run while the model is answering it (a slow model, held by the test): the reply that comes after
 * the stop was paid for, so it is kept off the active path with its cost, and the model received exactly the calls
 * the run counts — in {@code plan} as in {@code think}.
 */
@AgentLoopTest
class StopInFlightScenarioTest {

  private static final String AGENT = "held-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired ResumeService resume;
  @Autowired StepStore store;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
  }

  @Test
  void should_keep_and_count_the_plan_that_came_after_a_person_stopped_the_run() {
    // given a run whose plan the model is still writing
    ModelCalls.hold("held: plan", Purpose.PLAN);
    String run = runs.start(AGENT, "held: plan, then stopped");
    await().atMost(Runs.PATIENCE).until(() -> ModelCalls.received(run) == 1);

    // when a person stops it, and then the model's plan comes
    resume.stop(run, "not needed any more", "olga");
    ModelCalls.release("held: plan");

    // then the plan is kept with its cost, off the active path, and the run counts the one call the model received
    Step late = awaitLate(run, StepKind.PLAN);
    RunRecord stopped = store.run(run);
    assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED);
    assertThat(stopped.modelCalls()).isEqualTo(1).isEqualTo(ModelCalls.received(run));
    assertThat(late.status()).isEqualTo(StepStatus.SUPERSEDED);
    assertThat(late.reason()).startsWith("the model replied after the run had left its loop");
    assertThat(Runs.kinds(store.activePath(run))).doesNotContain(StepKind.PLAN);
  }

  @Test
  void should_keep_and_count_the_answer_that_came_after_a_person_stopped_the_run() {
    // given a run whose plan is made and whose answer the model is still writing
    ModelCalls.hold("held: think", Purpose.THINK);
    String run = runs.start(AGENT, "held: think, then stopped");
    await().atMost(Runs.PATIENCE).until(() -> ModelCalls.received(run) == 2);

    // when a person stops it, and then the model's answer comes
    resume.stop(run, "asked elsewhere", "olga");
    ModelCalls.release("held: think");

    // then the answer is kept with its cost, off the active path: the run counts the two calls the model received
    Step late = awaitLate(run, StepKind.FINAL_ANSWER);
    RunRecord stopped = store.run(run);
    assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED);
    assertThat(stopped.modelCalls()).isEqualTo(2).isEqualTo(ModelCalls.received(run));
    assertThat(late.status()).isEqualTo(StepStatus.SUPERSEDED);
    assertThat(late.text("text")).isEqualTo("the held answer");
    assertThat(Runs.kinds(store.activePath(run))).doesNotContain(StepKind.FINAL_ANSWER);
    assertThat(store.activePath(run).get(store.activePath(run).size() - 1).text("text"))
        .isEqualTo("Stopped: asked elsewhere");
  }

  @Test
  void should_count_the_reply_that_came_after_a_person_edited_the_run_while_the_model_answered() {
    // given a run whose plan is made and whose answer the model is still writing
    ModelCalls.hold("held: edit", Purpose.THINK);
    String run = runs.start(AGENT, "held: edit while thinking");
    await().atMost(Runs.PATIENCE).until(() -> ModelCalls.received(run) == 2);

    // when a person edits its plan, which has the model think again, and then the model answers both calls
    RunRecord before = store.run(run);
    resume.edit(new StepEdit(run, store.activePath(run).get(0).stepNo(), TestTools.parse("{\"steps\": [\"Answer"
        + " at once\"]}"), "shorter", before.head().version(), "olga"));
    await().atMost(Runs.PATIENCE).until(() -> ModelCalls.received(run) == 3);
    ModelCalls.release("held: edit");

    // then the run answers from the new branch, and counts all three calls the model received: the reply to the
    // superseded branch was paid for, though it is not kept beside the edit
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    await().atMost(Runs.PATIENCE).until(() -> store.run(run).modelCalls() == ModelCalls.received(run));
    assertThat(store.run(run).modelCalls()).isEqualTo(3);
    assertThat(store.activePath(run).get(0).json().get("steps").toString()).contains("Answer at once");
  }

  private Step awaitLate(String run, StepKind kind) {
    return await().atMost(Runs.PATIENCE).until(() -> store.allSteps(run).stream()
        .filter(step -> step.kind() == kind && step.status() == StepStatus.SUPERSEDED).findFirst(),
        java.util.Optional::isPresent).orElseThrow();
  }
}
