package dev.agentloop.internal.resume;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.HUMAN_INPUT;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Thought;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Edit, regenerate, restart and stop on real runs of the shipped diagram, driven by the embedded
 * worker and the scripted model: what the trace looks like afterwards, where the run continues,
 * how many model calls it costs, and what happens to side effects and concurrent changes.
 */
@AgentLoopTest
class ResumeScenarioTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired RunRestarts restarts;

  @Test
  void should_continue_from_an_edited_observation_with_only_the_model_calls_after_it() {
    // given a three-turn run waiting with its answer: plan + 3 turns = 4 model calls
    String run = startWaitingForReview("multi-step: edit an observation");
    assertThat(runs.view(run).modelCalls()).isEqualTo(4);
    Step observation = active(run).get(3);
    assertThat(observation.kind()).isEqualTo(OBSERVATION);

    // when
    ResumeResult result = resume.edit(edit(run, observation.stepNo(), "{\"result\": \"391\"}", "recomputed by hand"));

    // then the run continues at think, and only the two turns after the edit call the model
    assertThat(result.continuesAt()).isEqualTo(ReactAgentProcess.THINK);
    assertThat(result.superseded()).containsExactly(4, 5, 6, 7, 8);
    assertThat(result.sideEffects()).isEmpty();
    awaitReview(run, 2);
    assertThat(runs.view(run).modelCalls()).isEqualTo(6);
    List<Step> path = active(run);
    assertThat(Runs.kinds(path)).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION,
        FINAL_ANSWER);
    Step edited = path.get(3);
    assertThat(edited.stepNo()).isEqualTo(result.newStep()).isEqualTo(9);
    assertThat(edited.supersedes()).isEqualTo(4);
    assertThat(edited.parentNo()).isEqualTo(3);
    assertThat(edited.author()).isEqualTo("olga");
    assertThat(edited.reason()).isEqualTo("recomputed by hand");
    assertThat(edited.text("result")).isEqualTo("391");
    assertThat(store.allSteps(run)).filteredOn(step -> step.stepNo() <= 8 && step.stepNo() >= 4)
        .allMatch(step -> step.status() == StepStatus.SUPERSEDED);
  }

  @Test
  void should_run_an_edited_action_without_asking_the_model_again() {
    // given
    String run = startWaitingForReview("multi-step: edit an action");

    // when the first calculation is changed
    ResumeResult result = resume.edit(edit(run, 3, "{\"arguments\": {\"expression\": \"2 * 3\"}}", "wrong numbers"));

    // then act runs the edited call, and the model is asked for the two later turns only
    assertThat(result.continuesAt()).isEqualTo(ReactAgentProcess.ACT);
    awaitReview(run, 2);
    List<Step> path = active(run);
    assertThat(path.get(2).json().at("/arguments/expression").asText()).isEqualTo("2 * 3");
    assertThat(path.get(3).text("result")).isEqualTo("6");
    assertThat(path.get(3).author()).isEqualTo("calculator");
    assertThat(runs.view(run).modelCalls()).isEqualTo(6);
  }

  @Test
  void should_keep_the_other_call_of_the_turn_when_one_call_is_edited() {
    // given a turn with two calls, both observed
    String run = startWaitingForReview("two-calls: edit one");
    List<Step> before = active(run);
    assertThat(Runs.kinds(before)).containsExactly(PLAN, THOUGHT, ACTION, ACTION, OBSERVATION, OBSERVATION,
        FINAL_ANSWER);

    // when the first call is edited
    resume.edit(edit(run, 3, "{\"arguments\": {\"expression\": \"10 + 1\"}}", "other numbers"));

    // then the second call and its observation are carried over, not run again; only the edited call runs
    awaitReview(run, 2);
    List<Step> path = active(run);
    assertThat(Runs.kinds(path)).containsExactly(PLAN, THOUGHT, ACTION, ACTION, OBSERVATION, OBSERVATION,
        FINAL_ANSWER);
    assertThat(path.get(3).json().at("/arguments/expression").asText()).isEqualTo("2 + 2");
    assertThat(path.get(4).text("result")).isEqualTo("4");
    assertThat(path.get(5).text("result")).isEqualTo("11");
  }

  @Test
  void should_discard_a_model_reply_that_arrives_after_an_edit() {
    // given the model is still working on turn 2 (the script takes 1.5 s) when the observation is edited
    String run = start("resume-slow: late reply");
    await().atMost(Runs.PATIENCE).until(() -> active(run).size() == 4);
    int version = runs.view(run).version();

    // when
    resume.edit(new StepEdit(run, 4, json("{\"result\": \"400\"}"), "the calculator was wrong", version, "olga"));

    // then the reply to the old path is not written: no step hangs below the superseded observation
    awaitReview(run, 1);
    List<Step> all = store.allSteps(run);
    assertThat(all).filteredOn(step -> step.parentNo() != null && step.parentNo() == 4).isEmpty();
    assertThat(all).filteredOn(step -> step.status() == StepStatus.SUPERSEDED).extracting(Step::stepNo)
        .containsExactly(4);
    assertThat(Runs.kinds(active(run))).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, FINAL_ANSWER);
    // but the call was made and paid for: the run counts it, as the model received it
    assertThat(runs.view(run).modelCalls()).isEqualTo(4).isEqualTo(dev.agentloop.ModelCalls.received(run));
  }

  @Test
  void should_list_side_effects_and_ask_before_repeating_them() {
    // given log_event (side effects, configured to run without approval) ran once
    String run = startWaitingForReview("side-effect: log once");
    int logged = TestTools.LOGGED.get();
    Step observation = active(run).get(3);

    // when the plan is edited, the model starts over after it and calls log_event again
    ResumeResult result = resume.edit(edit(run, 1, "{\"steps\": [\"Log it, once more\"]}", "try again"));

    // then the edit says what already happened ...
    assertThat(result.sideEffects()).singleElement().satisfies(effect -> {
      assertThat(effect.step()).isEqualTo(observation.stepNo());
      assertThat(effect.tool()).isEqualTo("log_event");
      assertThat(effect.result()).isEqualTo(observation.text("result"));
    });
    // ... and the repeated call waits for a person although log_event needs no approval otherwise
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    assertThat(TestTools.LOGGED.get()).isEqualTo(logged);
    assertThat(active(run).get(2).json().get("repeats").asInt()).isEqualTo(observation.stepNo());
    // no decision is chosen in advance: the person approves the repeated call
    engine.getTaskService().setVariablesLocal(approval.getId(), Map.of("decision1", "approve"));
    engine.getTaskService().complete(approval.getId());
    awaitReview(run, 2);
    assertThat(TestTools.LOGGED.get()).isEqualTo(logged + 1);
  }

  @Test
  void should_let_exactly_one_of_concurrent_edits_on_the_same_head_win() throws Exception {
    // given
    String run = startWaitingForReview("multi-step: many editors");
    int version = runs.view(run).version();
    int editors = 6;
    ExecutorService pool = Executors.newFixedThreadPool(editors);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ResumeResult>> results = new ArrayList<>();

    // when six people edit the same step on the same head at once
    for (int i = 0; i < editors; i++) {
      String text = "Thought of editor " + i;
      Callable<ResumeResult> editing = () -> {
        go.await();
        return resume.edit(new StepEdit(run, 5, json("{\"text\": \"" + text + "\"}"), "mine", version, "editor"));
      };
      results.add(pool.submit(editing));
    }
    go.countDown();
    int won = 0;
    int conflicts = 0;
    for (Future<ResumeResult> future : results) {
      try {
        future.get();
        won++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(ResumeConflictException.class);
        conflicts++;
      }
    }
    pool.shutdown();

    // then one wins, the others change nothing
    assertThat(won).isEqualTo(1);
    assertThat(conflicts).isEqualTo(editors - 1);
    assertThat(store.allSteps(run)).filteredOn(step -> Integer.valueOf(5).equals(step.supersedes())).hasSize(1);
    awaitReview(run, 2);
  }

  @Test
  void should_refuse_edits_that_do_not_fit_and_change_nothing() {
    // given
    String run = startWaitingForReview("multi-step: bad edits");
    resume.edit(edit(run, 4, "{\"result\": \"391\"}", "fine"));
    awaitReview(run, 2);
    int version = runs.view(run).version();
    int steps = store.allSteps(run).size();

    // then
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 2, json("{\"text\": \"x\"}"), "r", version - 1, "olga")))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("moved on since version");
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 4, json("{\"result\": \"1\"}"), "r", version, "olga")))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("superseded branch");
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 99, json("{\"text\": \"x\"}"), "r", version, "olga")))
        .isInstanceOf(UnknownStepException.class);
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 3, json("{\"arguments\": {\"expression\": 5}}"), "r",
        version, "olga")))
        .isInstanceOf(InvalidEditException.class).hasMessageContaining("schema").hasMessageContaining("expression");
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 3, json("{\"tool\": \"rm_rf\", \"arguments\": {}}"), "r",
        version, "olga")))
        .isInstanceOf(InvalidEditException.class).hasMessageContaining("no tool named 'rm_rf'");
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, 1, json("{\"steps\": []}"), "r", version, "olga")))
        .isInstanceOf(InvalidEditException.class).hasMessageContaining("plan");
    Step answer = active(run).get(7);
    assertThatThrownBy(() -> resume.edit(new StepEdit(run, answer.stepNo(), json("{\"text\": \"x\"}"), "r", version,
        "olga"))).isInstanceOf(InvalidEditException.class).hasMessageContaining("regenerate");
    assertThat(store.allSteps(run)).hasSize(steps);
    assertThat(runs.view(run).version()).isEqualTo(version);
  }

  @Test
  void should_regenerate_the_waiting_answer_and_refuse_when_there_is_none() {
    // given
    String run = startWaitingForReview("regenerate: through the service");
    assertThat(runs.view(run).finalAnswer()).isEqualTo("first answer");

    // when
    ResumeResult result = resume.regenerate(run, "olga", null);

    // then
    assertThat(result.continuesAt()).isEqualTo(ReactAgentProcess.THINK);
    awaitReview(run, 2);
    assertThat(runs.view(run).finalAnswer()).isEqualTo("second answer");

    // and a run that waits for approval has no answer to regenerate
    String waiting = startWaitingForReview("side-effect: no answer yet");
    resume.edit(edit(waiting, 3, "{\"arguments\": {}}", "again"));
    Runs.awaitTask(engine, waiting, ReactAgentProcess.APPROVE_ACTION);
    assertThatThrownBy(() -> resume.regenerate(waiting, "olga", null))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("no final answer");
  }

  @Test
  void should_restart_a_finished_run_from_a_step_as_a_new_linked_run() {
    // given a finished run: PLAN, T, A, O, T, A, O, FINAL_ANSWER
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("multi-step: restart me")).getId();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThatThrownBy(() -> resume.edit(edit(run, 4, "{\"result\": \"1\"}", "late")))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("restart");

    // when restarted from its first observation
    String restarted = restarts.restart(run, 4, "try the second half again", "olga");

    // then the new run starts with a copy of steps 1-4, continues at think, and answers with two model calls
    RunView view = Runs.awaitStatus(runs, restarted, RunStatus.ANSWERED);
    assertThat(view.restartedFrom()).isEqualTo(run);
    assertThat(view.restartedFromStep()).isEqualTo(4);
    assertThat(view.restartedBy()).isEqualTo("olga");
    assertThat(view.restartReason()).isEqualTo("try the second half again");
    assertThat(runs.view(run).restarts()).containsExactly(restarted);
    assertThat(view.modelCalls()).isEqualTo(2);
    List<Step> copied = active(restarted).subList(0, 4);
    assertThat(copied).extracting(Step::content).containsExactlyElementsOf(
        active(run).subList(0, 4).stream().map(Step::content).toList());
    assertThat(Runs.kinds(active(restarted))).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION,
        OBSERVATION, FINAL_ANSWER);
  }

  @Test
  void should_stop_a_waiting_run_and_answer_its_open_calls() {
    // given a run waiting for approval of a repeated side effect
    String run = startWaitingForReview("side-effect: stop me");
    resume.edit(edit(run, 3, "{\"arguments\": {}}", "again"));
    Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    // when
    resume.stop(run, "not needed any more", "olga");

    // then
    RunView view = runs.view(run);
    assertThat(view.status()).isEqualTo(RunStatus.STOPPED);
    assertThat(view.statusReason()).isEqualTo("stopped by olga: not needed any more");
    List<Step> path = active(run);
    assertThat(Runs.kinds(path.subList(path.size() - 3, path.size()))).containsExactly(ACTION, OBSERVATION,
        HUMAN_INPUT);
    assertThat(path.get(path.size() - 2).text("error")).contains("stopped by olga");
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(run).count()).isZero();
  }

  // ---- the same from answer review in Tasklist: modelled, no modification -------------------------

  @Test
  void should_offer_the_steps_in_answer_review_and_continue_from_an_edited_thought() {
    // given
    String run = startWaitingForReview("multi-step: edit in the form");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat((String) engine.getTaskService().getVariableLocal(review.getId(), "steps"))
        .startsWith("#1 PLAN (model)\nCompute the product\nAdd the days of a leap year\n\n#2 THOUGHT (model)\nFirst")
        .contains("\n\n#4 OBSERVATION (calculator)\n391\n\n").doesNotContain("FINAL_ANSWER");
    assertThat(engine.getTaskService().getVariableLocal(review.getId(), "editLabel6")).isEqualTo("#6 ACTION (model)");
    assertThat(engine.getTaskService().getVariableLocal(review.getId(), "editContent6"))
        .isEqualTo("{\n  \"expression\" : \"391 + 366\"\n}");

    // when the reviewer edits the second calculation's arguments
    submit(review, Map.of("decision", "edit", "editStep", 6L, "editContent", "{\"expression\": \"391 + 365\"}",
        "editReason", "not a leap year"));

    // then the gateway resumeAt leads to act: the edited call runs, then one more model turn
    awaitReview(run, 2);
    List<Step> path = active(run);
    assertThat(path.get(5).author()).isEqualTo("rita");
    assertThat(path.get(5).reason()).isEqualTo("not a leap year");
    assertThat(path.get(6).text("result")).isEqualTo("756");
    assertThat(runs.view(run).modelCalls()).isEqualTo(5);
  }

  @Test
  void should_keep_the_review_open_when_the_edit_in_the_form_cannot_be_used() {
    // given
    String run = startWaitingForReview("multi-step: bad edit in the form");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    int steps = store.allSteps(run).size();

    // then
    assertThatThrownBy(() -> submit(review, Map.of("decision", "edit", "editStep", 3L, "editContent", "17 times 23")))
        .hasMessageContaining("JSON object");
    assertThatThrownBy(() -> submit(review, Map.of("decision", "edit", "editStep", "three", "editContent", "x")))
        .hasMessageContaining("by its number");
    assertThatThrownBy(() -> submit(review, Map.of("decision", "edit", "editStep", 3L,
        "editContent", "{\"expression\": 17}"))).hasMessageContaining("schema");
    assertThat(store.allSteps(run)).hasSize(steps);
    assertThat(engine.getTaskService().createTaskQuery().taskId(review.getId()).count()).isEqualTo(1);
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private void submit(Task task, Map<String, Object> fields) {
    Runs.submitForm(engine, task, "rita", fields);
  }

  private String start(String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(TestAgent.ANSWER_REVIEWED,
        ReactAgentProcess.QUESTION.with(question)).getId();
  }

  private String startWaitingForReview(String question) {
    String run = start(question);
    awaitReview(run, 1);
    return run;
  }

  /** Waits until the run waits in answer review with this many answers written so far (any branch). */
  private void awaitReview(String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() ->
        store.allSteps(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers
            && runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
  }

  private StepEdit edit(String run, int step, String content, String reason) {
    return new StepEdit(run, step, json(content), reason, runs.view(run).version(), "olga");
  }

  private List<Step> active(String run) {
    return store.activePath(run);
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
