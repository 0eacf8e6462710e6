package dev.agentloop.internal.review;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.HUMAN_INPUT;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.agentloop.internal.trace.StepStatus;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.exception.NotFoundException;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Every decision of the four review tasks, on review-agent (the shipped diagram with both reviews on). */
@AgentLoopTest
class ReviewScenarioTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired ReviewTasks reviewTasks;

  @AfterEach
  void resetClockAndUser() {
    ClockUtil.reset();
    engine.getIdentityService().clearAuthentication();
  }

  // ---- plan review -------------------------------------------------------------------------------

  @Test
  void should_show_the_plan_for_review_and_continue_with_it_when_accepted() {
    // given
    String run = start("review-plan: what is it?");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    // then the form has the plan, one step per line, no decision chosen in advance and the revisions left
    assertThat(local(review, "plan")).isEqualTo("Look it up\nAnswer");
    assertThat(engine.getTaskService().getVariablesLocal(review.getId())).containsEntry("decision", null);
    assertThat(local(review, "revisionsLeft")).isEqualTo(2);
    assertThat(runs.view(run).status()).isEqualTo(RunStatus.WAITING);

    // when
    complete(review, "ann", Map.of("decision", "accept"));

    // then the unedited plan is not written again, and the answer waits for review
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(kinds(run)).containsExactly(PLAN, FINAL_ANSWER);
  }

  @Test
  void should_write_an_edited_plan_as_a_step_of_the_reviewer() {
    // given
    String run = start("review-plan: edit it");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    // when
    complete(review, "ann", Map.of("decision", "accept", "plan", "1. Look it up twice\n  \n- Answer\n"));

    // then list markers and blank lines are dropped, the edited plan is on the path and the model's plan stays before it
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    List<Step> trace = runs.trace(run, false);
    assertThat(Runs.kinds(trace)).containsExactly(PLAN, PLAN, FINAL_ANSWER);
    assertThat(trace.get(1).author()).isEqualTo("ann");
    assertThat(trace.get(1).reason()).isEqualTo("edited in plan review");
    assertThat(trace.get(1).json().get("steps")).isEqualTo(json("[\"Look it up twice\", \"Answer\"]"));
  }

  @Test
  void should_plan_again_with_the_feedback_and_accept_as_is_when_revisions_run_out() {
    // given
    String run = start("review-plan: revise it");

    // when the reviewer sends the plan back three times (two revisions are allowed)
    for (int i = 1; i <= 3; i++) {
      Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
      assertThat(local(review, "revisionsLeft")).isEqualTo(Math.max(0, 3 - i));
      complete(review, "ann", Map.of("decision", "revise", "feedback", "more detail, please (" + i + ")"));
    }

    // then the planner planned three times with the feedback, and the third revision accepted the plan
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    List<Step> trace = runs.trace(run, false);
    assertThat(Runs.kinds(trace)).containsExactly(PLAN, HUMAN_INPUT, PLAN, HUMAN_INPUT, PLAN, FINAL_ANSWER);
    assertThat(trace.get(1).text("text")).isEqualTo("more detail, please (1)");
    assertThat(trace.get(1).reason()).isEqualTo("plan feedback");
    assertThat(runs.view(run).modelCalls()).isEqualTo(4);
  }

  @Test
  void should_end_the_run_rejected_with_the_reviewers_reason() {
    String run = start("review-plan: reject it");
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), "ann",
        Map.of("decision", "reject", "feedback", "off topic"));

    RunView view = Runs.awaitStatus(runs, run, RunStatus.REJECTED);
    assertThat(view.statusReason()).isEqualTo("off topic");
    assertThat(runs.trace(run, false).get(1).text("text")).isEqualTo("Rejected: off topic");
  }

  @Test
  void should_refuse_what_the_plan_review_cannot_use_and_keep_the_task() {
    // given
    String run = start("review-plan: bad input");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    // then each bad submission is refused with a message, and nothing is written
    assertRefused(review, Map.of("decision", "maybe"), "'maybe' is not a decision of this task; choose one of accept, revise, reject");
    assertRefused(review, Map.of("plan", "Look it up"), "choose a decision (decision): one of accept, revise, reject");
    assertRefused(review, Map.of("decision", "accept", "plan", " \n "), "the plan needs at least one step");
    assertRefused(review, Map.of("decision", "revise", "feedback", "  "), "say in the feedback what the planner should change");
    assertThatThrownBy(() -> engine.getTaskService().complete(review.getId(), Map.of("decision", "reject")))
        .hasRootCauseInstanceOf(ReviewException.class).hasMessageContaining("'decision' came as a process variable");
    assertThat(engine.getTaskService().createTaskQuery().taskId(review.getId()).count()).isEqualTo(1);
    assertThat(engine.getRuntimeService().getVariable(run, "decision")).isNull();
    assertThat(kinds(run)).containsExactly(PLAN);
  }

  // ---- ask human ---------------------------------------------------------------------------------

  @Test
  void should_give_the_agent_a_persons_answers_as_the_observation_of_its_question() {
    // given
    String run = startAccepted("ask-human: where do I live?");
    Task question = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    assertThat(local(question, "question1")).isEqualTo("What is your name?");
    assertThat(local(question, "question2")).isEqualTo("Which city do you live in?");
    assertThat(local(question, "question3")).isNull();

    // when
    complete(question, "bob", Map.of("answer1", "Bob", "answer2", ""));

    // then
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    Step observation = step(run, OBSERVATION);
    assertThat(observation.author()).isEqualTo("bob");
    assertThat(observation.text("tool")).isEqualTo("ask_human");
    assertThat(observation.text("result"))
        .isEqualTo("Q: What is your name?\nA: Bob\nQ: Which city do you live in?\nA: (no answer)");
    assertThat(runs.view(run).toolCalls()).isZero();
  }

  @Test
  void should_show_the_newest_steps_of_a_long_path_and_say_where_all_of_them_are() {
    // given a person's answer longer than a form field holds
    String run = startAccepted("ask-human: a long answer");
    Task question = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    complete(question, "bob", Map.of("answer1", "a".repeat(5000) + " the end", "answer2", "Lisbon"));

    // when the answer waits for review
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    // then the steps field holds the newest steps and says where it was cut and where to read all of it
    String steps = (String) local(review, "steps");
    assertThat(steps).hasSizeLessThanOrEqualTo(4000)
        .startsWith("[… ").contains("characters cut here. All of it: GET /api/runs/"
            + run + "/trace]\n")
        .contains(" the end\nQ: Which city do you live in?\nA: Lisbon");
    assertThat(local(review, "attempt")).isEqualTo(1);
    assertThat(local(review, "title")).isEqualTo("Review the answer");
    assertThat(local(review, "subject")).isEqualTo("ask-human: a long answer");
    assertThat(review.getName()).isEqualTo("Review the answer: ask-human: a long answer");
  }

  @Test
  void should_tell_the_agent_nobody_answered_when_the_timer_fires_and_refuse_a_late_answer() {
    // given
    String run = startAccepted("ask-human: silence");
    Task question = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    Job timer = engine.getManagementService().createJobQuery().processInstanceId(run).timers()
        .activityId(ReactAgentProcess.NO_ANSWER).singleResult();
    assertThat(timer.getDuedate()).isAfter(new Date(ClockUtil.getCurrentTime().getTime() + 23 * 3_600_000L));

    // when the test clock passes the timeout and the timer fires
    ClockUtil.setCurrentTime(new Date(timer.getDuedate().getTime() + 1_000));
    engine.getManagementService().executeJob(timer.getId());

    // then the agent goes on with the silence as its observation, and a late answer finds no task
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(step(run, OBSERVATION).text("error")).isEqualTo("no answer within PT24H; continue without it");
    assertThatThrownBy(() -> reviewTasks.complete(run, question.getId(), Map.of()))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("has no open task " + question.getId());
  }

  @Test
  void should_refuse_a_submission_with_no_answer_at_all() {
    String run = startAccepted("ask-human: empty");
    Task question = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);

    assertRefused(question, Map.of(), "answer at least one of the questions");
  }

  @Test
  void should_run_the_other_calls_and_tell_the_agent_to_ask_alone_when_ask_human_comes_with_them() {
    String run = startAccepted("mixed-ask: both");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    List<Step> observations = runs.trace(run, false).stream().filter(s -> s.kind() == OBSERVATION).toList();
    assertThat(observations.get(0).text("error")).contains("ask_human must be the only tool call of a turn");
    assertThat(observations.get(1).text("result")).isEqualTo("2");
  }

  // ---- action approval ---------------------------------------------------------------------------

  @Test
  void should_stop_side_effecting_calls_for_approval_and_run_them_when_approved() {
    // given
    int sentBefore = TestTools.SENT.get();
    String run = startAccepted("approve: send it");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    // then only the side-effecting call waits, with its arguments as JSON
    assertThat(local(approval, "tool1")).isEqualTo("send_email");
    assertThat(local(approval, "tool2")).isNull();
    assertThat(json(approval, "arguments1")).isEqualTo(json("{\"to\": \"ann@example.com\", \"subject\": \"Hello\"}"));
    assertThat(engine.getTaskService().getVariablesLocal(approval.getId())).containsEntry("decision1", null);
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore);
    assertRefused(approval, Map.of(), "choose a decision for call 1 (send_email, decision1): one of approve, edit, reject");

    // when
    complete(approval, "carl", Map.of("decision1", "approve"));

    // then both calls ran, the approval is the approver's step
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, ACTION, HUMAN_INPUT, OBSERVATION, OBSERVATION, FINAL_ANSWER);
    assertThat(step(run, HUMAN_INPUT).author()).isEqualTo("carl");
    assertThat(step(run, OBSERVATION).text("result")).startsWith("sent to ann@example.com");
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore + 1);
  }

  @Test
  void should_run_a_call_with_the_arguments_the_approver_edited() {
    String run = startAccepted("approve: edit it");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    complete(approval, "carl", edited("edit", "{\"to\": \"bea@example.com\", \"subject\": \"Hello\"}", ""));

    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(step(run, OBSERVATION).text("result")).startsWith("sent to bea@example.com");
    // the answer's evidence shows the arguments that ran, not the model's
    assertThat((String) local(review, "steps")).contains("send_email {\"to\":\"bea@example.com\",\"subject\":\"Hello\"}\n"
        + "(ran with these arguments, edited at approval by carl; the model had asked for {\"to\":\"ann@example.com\"");
  }

  @Test
  void should_refuse_edited_arguments_that_break_the_schema_and_keep_the_task() {
    String run = startAccepted("approve: break it");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    assertRefused(approval, edited("edit", "{\"to\": \"nobody\"}", ""),
        "arguments for 'send_email' do not match its schema");
    assertRefused(approval, edited("edit", "{to: ", ""),
        "the arguments of send_email are not valid JSON at line 1, column 2: unexpected character ('t'): was expecting"
            + " double-quote to start field name");
    assertRefused(approval, edited("perhaps", "{}", ""),
        "'perhaps' is not a decision for send_email");
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, ACTION);
  }

  @Test
  void should_observe_a_rejected_call_as_rejected_without_running_it() {
    int sentBefore = TestTools.SENT.get();
    String run = startAccepted("approve: reject it");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    complete(approval, "carl", edited("reject", "{}", "not before Monday"));

    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    Step rejected = step(run, OBSERVATION);
    assertThat(rejected.text("error")).isEqualTo("not run, rejected by carl: not before Monday");
    assertThat(rejected.author()).isEqualTo("carl");
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore);
    assertThat(runs.view(run).toolCalls()).isEqualTo(1);
  }

  @Test
  void should_reject_calls_beyond_what_the_form_holds_instead_of_running_them_unapproved() {
    int sentBefore = TestTools.SENT.get();
    String run = startAccepted("approve-many: six mails");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    assertThat(local(approval, "tool5")).isEqualTo("send_email");
    assertThat(local(approval, "tool6")).isNull();

    complete(approval, "carl", Map.of("decision1", "approve", "decision2", "approve", "decision3", "approve",
        "decision4", "approve", "decision5", "approve"));

    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore + 5);
    assertThat(runs.trace(run, false)).filteredOn(s -> s.kind() == OBSERVATION).last()
        .satisfies(last -> assertThat(last.text("error")).contains("a person approves at most 5 calls at a time"));
  }

  // ---- answer review -----------------------------------------------------------------------------

  @Test
  void should_regenerate_the_answer_again_and_again_keeping_the_earlier_ones_superseded() {
    // given
    String run = startAccepted("regenerate: please");

    // when the reviewer regenerates twice and accepts the third answer
    for (String answer : List.of("first answer", "second answer")) {
      Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
      assertThat(local(review, "answer")).isEqualTo(answer);
      complete(review, "dora", Map.of("decision", "regenerate"));
    }
    Task last = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    complete(last, "dora", Map.of("decision", "accept"));

    // then
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("third answer");
    List<Step> all = runs.trace(run, true);
    assertThat(all).filteredOn(s -> s.kind() == FINAL_ANSWER).extracting(s -> s.text("text"), Step::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("first answer", StepStatus.SUPERSEDED),
            org.assertj.core.groups.Tuple.tuple("second answer", StepStatus.SUPERSEDED),
            org.assertj.core.groups.Tuple.tuple("third answer", StepStatus.ACTIVE));
    assertThat(all).filteredOn(s -> s.kind() == FINAL_ANSWER).extracting(Step::parentNo).containsOnly(1);
    assertThat(kinds(run)).containsExactly(PLAN, FINAL_ANSWER);
  }

  @Test
  void should_continue_with_the_reviewers_feedback() {
    String run = startAccepted("feedback: please");
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER), "dora",
        Map.of("decision", "feedback", "feedback", "add the source"));

    Task second = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(local(second, "answer")).isEqualTo("improved answer");
    assertThat(kinds(run)).containsExactly(PLAN, FINAL_ANSWER, HUMAN_INPUT, FINAL_ANSWER);
    assertThat(step(run, HUMAN_INPUT).text("text")).isEqualTo("add the source");
  }

  @Test
  void should_refuse_feedback_without_text() {
    String run = startAccepted("feedback: empty");
    assertRefused(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER), Map.of("decision", "feedback"),
        "write the feedback the agent should continue with");
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private String start(String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED, ReactAgentProcess.QUESTION.with(question)).getId();
  }

  /** Starts a run and accepts its plan, for tests about what comes after. */
  private String startAccepted(String question) {
    String run = start(question);
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), "ann", Map.of("decision", "accept"));
    return run;
  }

  private void complete(Task task, String user, Map<String, Object> fields) {
    Runs.submitForm(engine, task, user, fields);
  }

  /** Tasklist shows the engine's message, which carries the review's own. */
  private void assertRefused(Task task, Map<String, Object> fields, String message) {
    assertThatThrownBy(() -> complete(task, "ann", fields))
        .hasRootCauseInstanceOf(ReviewException.class).hasMessageContaining(message)
        // a parser's internals are no words for a reviewer
        .hasMessageNotContaining("[Source").hasMessageNotContaining("(code ");
  }

  /** What the approval form submits for its first call. */
  private static Map<String, Object> edited(String decision, String arguments, String reason) {
    return Map.of("decision1", decision, "arguments1", arguments, "reason1", reason);
  }

  private Object local(Task task, String name) {
    return engine.getTaskService().getVariableLocal(task.getId(), name);
  }

  private JsonNode json(Task task, String name) {
    return json(String.valueOf(local(task, name)));
  }

  private List<dev.agentloop.internal.trace.step.StepKind> kinds(String run) {
    return Runs.kinds(runs.trace(run, false));
  }

  private Step step(String run, dev.agentloop.internal.trace.step.StepKind kind) {
    return runs.trace(run, false).stream().filter(s -> s.kind() == kind).findFirst().orElseThrow();
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
