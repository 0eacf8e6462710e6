package dev.agentloop.internal.resume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.resume.StepStatements.Statement;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.assertj.core.api.ListAssert;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * A command that changes a run reads the run's state once and writes once: counted on the statements the
 * application sends about the run ({@link StepStatements}). What counts: a <i>run read</i> is a query of the
 * run's row ({@code agentloop_run}, plain or locked), a <i>steps read</i> any query of its steps
 * ({@code agentloop_step}), a <i>write</i> one write of the step tree (an append, branch or rewind: each moves the
 * run's head and version once, whatever number of steps it inserts). The decision log and the engine's own
 * tables do not count. Commands are counted on the thread that ran them, so the agent's own work on worker
 * threads is left out.
 */
@AgentLoopTest
@Import(StepStatements.class)
@TestPropertySource(properties = "camunda.bpm.process-engine-name=onereadonewrite")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OneReadOneWriteTest {

  /** Plans and answers unattended, then waits for the next question. */
  private static final String CHAT = "counted-conversation-agent";
  /** Like {@link #CHAT}, but a person reviews each answer. */
  private static final String REVIEWED_CHAT = "counted-reviewed-conversation-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired Conversations conversations;

  @BeforeAll
  void deployConversationAgents() {
    TestAgent.deployConversationAgents(engine, CHAT, REVIEWED_CHAT);
  }

  @Test
  void an_answer_review_decision_reads_the_run_once_and_writes_once() {
    // given an answer waiting for review
    String run = startWithAcceptedPlan("feedback: please");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    // when the reviewer gives feedback
    StepStatements.watch(run);
    submit(review, Map.of("decision", "feedback", "feedback", "add the source"));

    // then
    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void a_regenerate_decision_in_the_answer_review_reads_the_run_once_and_writes_once() {
    String run = startWithAcceptedPlan("regenerate: please");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    StepStatements.watch(run);
    submit(review, Map.of("decision", "regenerate", "regenerateReason", "too short"));

    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void an_edit_in_the_answer_review_reads_the_steps_once_and_writes_once() {
    // given an answer after two calculations, waiting for review
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.ANSWER_REVIEWED,
        ReactAgentProcess.QUESTION.with("multi-step: counted edit")).getId();
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    // when the reviewer edits the second calculation's arguments
    StepStatements.watch(run);
    submit(review, Map.of("decision", "edit", "editStep", 6L, "editContent", "{\"expression\": \"391 + 365\"}",
        "editReason", "not a leap year"));

    // then the run was read with its steps once for the decision, and locked once more for the edit, which
    // checks that it is still at the version read and branches from the steps handed to it
    assertCounts(StepStatements.ofThisThread(), 2, 1, 1);
  }

  @Test
  void the_answer_review_form_is_filled_from_one_read_of_the_run() {
    // given a reviewer's feedback, which the agent answers again
    String run = startWithAcceptedPlan("feedback: please");
    Task first = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    StepStatements.watch(run);
    submit(first, Map.of("decision", "feedback", "feedback", "add the source"));

    // when the new answer's review task is created (by the worker that wrote the answer)
    Task second = await().atMost(Runs.PATIENCE).until(() -> engine.getTaskService().createTaskQuery()
        .processInstanceId(run).taskDefinitionKey(ReactAgentProcess.REVIEW_ANSWER).singleResult(),
        task -> task != null && !task.getId().equals(first.getId()));

    // then what that thread sent after it wrote the answer is the form's one read of the run
    assertThat(second).isNotNull();
    List<Statement> recorded = StepStatements.recorded();
    Statement answerWritten = recorded.stream().filter(Statement::writesSteps)
        .filter(statement -> !statement.thread().equals(Thread.currentThread().getName()))
        .reduce((a, b) -> b).orElseThrow();
    List<Statement> afterIt = recorded.subList(recorded.lastIndexOf(answerWritten) + 1, recorded.size()).stream()
        .filter(statement -> statement.thread().equals(answerWritten.thread())).toList();
    assertCounts(afterIt, 1, 1, 0);
  }

  @Test
  void a_plan_review_decision_reads_the_run_once_and_writes_once() {
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with("review-plan: revise it")).getId();
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    StepStatements.watch(run);
    submit(review, Map.of("decision", "revise", "feedback", "more detail, please"));

    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void an_approval_reads_the_run_once_and_writes_once() {
    String run = startWithAcceptedPlan("approve: send it");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    StepStatements.watch(run);
    submit(approval, Map.of("decision1", "approve"));

    // the open calls come from the same read as the head the approvals are written on
    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void an_answer_to_an_ask_human_question_reads_the_run_once_and_writes_once() {
    String run = startWithAcceptedPlan("ask-human: where do I live?");
    Task question = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);

    StepStatements.watch(run);
    submit(question, Map.of("answer1", "Bob", "answer2", ""));

    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void a_guide_decision_on_a_stuck_agent_reads_the_run_once_and_writes_once() {
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("loop-guided: counted")).getId();
    Task stuck = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);

    StepStatements.watch(run);
    submit(stuck, Map.of("decision", "guide", "note", "Stop calling noop and answer."));

    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void a_regenerate_of_an_earlier_turn_reads_the_run_once_and_writes_once() {
    // given a conversation of three turns
    String run = runs.start(CHAT, "conv: counted");
    awaitFollowUpWith(run, 1);
    conversations.ask(run, "conv: and the second?", "ana");
    awaitFollowUpWith(run, 2);
    conversations.ask(run, "conv: and the third?", "ben");
    awaitFollowUpWith(run, 3);

    // when turn 2 is regenerated, turn 3 asked again
    StepStatements.watch(run);
    resume.regenerate(run, 2, true, "olga", "the tool was down");

    // then the run was locked and read with its steps once, and rewound once
    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void a_regenerate_of_the_newest_answer_reads_the_run_once_and_writes_once() {
    String run = startWithAcceptedPlan("regenerate: please");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    StepStatements.watch(run);
    resume.regenerate(run, "olga", "too short");

    assertOneReadOneWrite(StepStatements.ofThisThread());
  }

  @Test
  void a_follow_up_locks_the_run_once_reads_no_steps_and_writes_once() {
    String run = runs.start(CHAT, "conv: counted follow-up");
    awaitFollowUpWith(run, 1);

    StepStatements.watch(run);
    conversations.ask(run, "conv: and then?", "ana");

    // the locked run's head is all a question needs: it goes below the answer the run waits with
    assertCounts(StepStatements.ofThisThread(), 1, 0, 1);
  }

  @Test
  void a_refused_follow_up_reads_the_run_once_and_writes_nothing() {
    // given a conversation whose answer waits for review
    String run = runs.start(REVIEWED_CHAT, "conv: counted too early");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    // when a question comes before the answer is accepted
    StepStatements.watch(run);
    assertThatThrownBy(() -> conversations.ask(run, "conv: too early", "ana"))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("it waits for " + ReactAgentProcess.REVIEW_ANSWER);

    // then the refusal says what the run waits for from the engine, without reading the run's trace
    assertCounts(StepStatements.ofThisThread(), 1, 0, 0);
  }

  private static void assertOneReadOneWrite(List<Statement> statements) {
    assertCounts(statements, 1, 1, 1);
  }

  private static void assertCounts(List<Statement> statements, int runReads, int stepReads, int writes) {
    count(statements, Statement::readsRun, "run reads").hasSize(runReads);
    count(statements, Statement::readsSteps, "steps reads").hasSize(stepReads);
    count(statements, Statement::writesSteps, "writes").hasSize(writes);
  }

  private static ListAssert<Statement> count(List<Statement> statements, Predicate<Statement> kind, String what) {
    return assertThat(statements.stream().filter(kind).toList())
        .as(what + " among the statements sent about the run:%n%s", String.join("\n",
            statements.stream().map(statement -> statement.thread() + ": " + statement.sql()).toList()));
  }

  /** Starts a run of the reviewed agent and accepts its plan. */
  private String startWithAcceptedPlan(String question) {
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with(question)).getId();
    submit(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), Map.of("decision", "accept"));
    return run;
  }

  private void submit(Task task, Map<String, Object> fields) {
    Runs.submitForm(engine, task, "ann", fields);
  }

  /** Waits until the run waits for a follow-up with this many answered turns on its active path. */
  private void awaitFollowUpWith(String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).waitingFor().contains(RunView.FOLLOW_UP)
        && store.activePath(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers);
  }
}
