package dev.agentloop.internal.resume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Conversations on the real engine: follow-up questions as new turns of one run, the model seeing the
 * earlier turns, regenerating an earlier turn with and without asking the later ones again, the idle
 * timer and an explicit close, and the follow-ups that are refused.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationScenarioTest {

  /** Plans and answers unattended, then waits for the next question. */
  private static final String CHAT = "conversation-agent";
  /** Like {@link #CHAT}, but a person reviews each answer. */
  private static final String REVIEWED_CHAT = "reviewed-conversation-agent";
  /** Like {@link #CHAT}, but a person reviews each plan. */
  private static final String PLANNED_CHAT = "planned-conversation-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired Conversations conversations;
  @Autowired DecisionLog decisions;

  @BeforeAll
  void deployConversationAgents() {
    TestAgent.deployConversationAgents(engine, CHAT, REVIEWED_CHAT);
    TestAgent.deployVariant(engine, PLANNED_CHAT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true"));
  }

  @Test
  void should_show_every_review_of_a_follow_up_the_conversation_so_far_each_question_and_answer_short() {
    // given a conversation whose plans a person reviews, its first question long
    String question = "conv: " + "why ".repeat(150).strip();
    String run = runs.start(PLANNED_CHAT, question);
    Task firstPlan = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    assertThat(local(firstPlan, "earlierTurns")).isEmpty();
    submit(firstPlan, Map.of("decision", "accept"));
    awaitFollowUpWith(run, 1, 1);

    // when the next question is asked
    conversations.ask(run, "conv: and the second?", "ana");

    // then the review of its plan shows the first turn, its question and answer each cut short
    Task secondPlan = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    // (300 characters of a question, 500 of an answer: the trace keeps them whole)
    String answer = runs.view(run).turns().get(0).answer();
    assertThat(answer.length()).isGreaterThan(500);
    assertThat(local(secondPlan, "earlierTurns")).isEqualTo("Question 1: " + question.substring(0, 300)
        + "…\nAnswer: " + answer.substring(0, 500) + "…");
    // and its question is the current turn's (the form's field reads the process variable)
    assertThat(engine.getTaskService().getVariable(secondPlan.getId(), ReactAgentProcess.QUESTION.name()))
        .isEqualTo("conv: and the second?");
  }

  @Test
  void should_answer_three_turns_each_with_the_earlier_turns_in_view() {
    // given / when
    String run = threeTurns("conv: three turns");

    // then the run waits for a fourth question, and lists its three turns
    RunView view = runs.view(run);
    assertThat(view.status()).isEqualTo(RunStatus.WAITING);
    assertThat(view.waitingFor()).containsExactly(RunView.FOLLOW_UP);
    assertThat(view.turns()).extracting(ConversationTurn::number, ConversationTurn::question,
            ConversationTurn::status, ConversationTurn::askedBy)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, "conv: three turns", ConversationTurn.Status.ANSWERED, null),
            org.assertj.core.groups.Tuple.tuple(2, "conv: and the second?", ConversationTurn.Status.ANSWERED, "ana"),
            org.assertj.core.groups.Tuple.tuple(3, "conv: and the third?", ConversationTurn.Status.ANSWERED, "ben"));
    // each answer was given with the answer before it in the prompt
    assertThat(view.turns().get(1).answer())
        .isEqualTo("first answer to 'conv: and the second?' after 'first answer to 'conv: three turns' after '''");
    assertThat(view.turns().get(2).answer()).startsWith("first answer to 'conv: and the third?' after 'first answer"
        + " to 'conv: and the second?'");
    // the follow-up is a step authored by who asked it, and each turn was planned: 3 plans, 3 answers
    assertThat(store.activePath(run)).filteredOn(step -> step.content() instanceof FollowUp)
        .extracting(Step::author).containsExactly("ana", "ben");
    assertThat(view.modelCalls()).isEqualTo(6);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.QUESTION.name()))
        .isEqualTo("conv: and the third?");
  }

  @Test
  void should_regenerate_turn_two_and_ask_turn_three_again_on_the_new_branch() {
    // given
    String run = threeTurns("conv: replay");
    List<ConversationTurn> before = runs.view(run).turns();
    long callsBefore = runs.view(run).modelCalls();

    // when turn 2 is regenerated and turn 3 asked again
    ResumeResult result = resume.regenerate(run, 2, true, "olga", "the tool was down");

    // then turn 2 gets a second answer, turn 3 is asked again once, by who asked it first, and answered
    // with the new answer of turn 2 in view
    assertThat(result.continuesAt()).isEqualTo(ReactAgentProcess.THINK);
    awaitFollowUpWith(run, 3, 5);
    List<ConversationTurn> after = runs.view(run).turns();
    assertThat(after).hasSize(3);
    assertThat(after.get(1).answer()).startsWith("second answer to 'conv: and the second?'");
    assertThat(after.get(2).question()).isEqualTo("conv: and the third?");
    assertThat(after.get(2).askedBy()).isEqualTo("ben");
    assertThat(after.get(2).answer()).isEqualTo("first answer to 'conv: and the third?' after '"
        + after.get(1).answer() + "'");
    // one model call for the new answer of turn 2, a plan and an answer for turn 3: the question once, and no call
    // paid twice (the plan of the replayed question reads the follow-up step its own task's completion wrote)
    assertThat(runs.view(run).modelCalls()).isEqualTo(callsBefore + 3).isEqualTo(ModelCalls.received(run));
    assertThat(store.activePath(run)).filteredOn(step -> step.content() instanceof FollowUp).hasSize(2);
    // turn 3's old answer stays stored, on the superseded branch
    Step oldAnswer = store.findStep(run, before.get(2).answerStep()).orElseThrow();
    assertThat(oldAnswer.status()).isEqualTo(StepStatus.SUPERSEDED);
    assertThat(store.findStep(run, before.get(1).answerStep()).orElseThrow().status())
        .isEqualTo(StepStatus.SUPERSEDED);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.REPLAY_QUESTIONS.name())).isNull();
  }

  @Test
  void should_regenerate_turn_two_and_drop_turn_three_without_replay() {
    // given
    String run = threeTurns("conv: no replay");
    List<ConversationTurn> before = runs.view(run).turns();

    // when
    resume.regenerate(run, 2, false, "olga", null);

    // then the conversation has two turns again and waits for the next question, its question turn 2's again
    // (what the next review's heading shows), not the dropped turn 3's
    awaitFollowUpWith(run, 2, 4);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.QUESTION.name()))
        .isEqualTo("conv: and the second?");
    List<ConversationTurn> after = runs.view(run).turns();
    assertThat(after).extracting(ConversationTurn::question).containsExactly("conv: no replay", "conv: and the second?");
    assertThat(after.get(1).answer()).startsWith("second answer");
    assertThat(store.findStep(run, before.get(2).questionStep()).orElseThrow().status())
        .isEqualTo(StepStatus.SUPERSEDED);
  }

  @Test
  void should_count_what_each_turn_cost_with_the_branches_superseded_in_it() {
    // given three turns, each a plan (no usage reported) and an answer of 100 + 20 tokens
    String run = threeTurns("conv: costs");
    assertThat(runs.view(run).turns()).extracting(turn -> turn.costs().promptTokens(),
            turn -> turn.costs().completionTokens(), turn -> turn.costs().modelCallsWithoutUsage())
        .containsOnly(org.assertj.core.groups.Tuple.tuple(100L, 20L, 1));

    // when turn 2 is redone without turn 3
    resume.regenerate(run, 2, false, "olga", null);
    awaitFollowUpWith(run, 2, 4);

    // then turn 2 counts its new answer, its old one and the whole of the old turn 3 (they were paid for)
    RunView view = runs.view(run);
    ConversationTurn second = view.turns().get(1);
    assertThat(second.costs().promptTokens()).isEqualTo(300L);
    assertThat(second.costs().completionTokens()).isEqualTo(60L);
    assertThat(second.costs().modelCallsWithoutUsage()).isEqualTo(2);
    assertThat(view.turns().get(0).costs().promptTokens()).isEqualTo(100L);
    // and the turns together cost what the run did
    assertThat(view.turns().stream().mapToLong(turn -> turn.costs().promptTokens()).sum())
        .isEqualTo(view.costs().promptTokens());
    assertThat(view.turns().stream().mapToLong(turn -> turn.costs().modelLatencyMillis()).sum())
        .isEqualTo(view.costs().modelLatencyMillis());
    assertThat(view.turns().stream().mapToInt(turn -> turn.costs().modelCallsWithoutUsage()).sum())
        .isEqualTo(view.costs().modelCallsWithoutUsage());

    // and once turn 1 is redone without the later turns, the one turn left owns every call made
    resume.regenerate(run, 1, false, "olga", null);
    awaitFollowUpWith(run, 1, 5);
    RunView one = runs.view(run);
    assertThat(one.turns()).singleElement().satisfies(turn -> assertThat(turn.costs()).isEqualTo(one.costs()));
    assertThat(one.costs().promptTokens()).isEqualTo(500L);
  }

  @Test
  void should_ask_the_later_turns_again_after_an_edit_in_turn_one_when_asked_to() throws Exception {
    // given
    String run = threeTurns("conv: edit turn one");
    Step plan = store.activePath(run).stream().filter(step -> step.kind() == StepKind.PLAN).findFirst().orElseThrow();
    long callsBefore = runs.view(run).modelCalls();

    // when turn 1's plan is edited, asking turns 2 and 3 again
    resume.edit(new StepEdit(run, plan.stepNo(),
        new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"steps\": [\"Answer it briefly\"]}"),
        "shorter plan", runs.view(run).version(), "olga", true));

    // then turn 1 is answered again from the edited plan, and turns 2 and 3 are asked again in order, by who
    // asked them first: one model call for turn 1, a plan and an answer for each later turn
    awaitFollowUpWith(run, 3, 6);
    List<ConversationTurn> turns = runs.view(run).turns();
    assertThat(turns).extracting(ConversationTurn::question, ConversationTurn::askedBy).containsExactly(
        org.assertj.core.groups.Tuple.tuple("conv: edit turn one", null),
        org.assertj.core.groups.Tuple.tuple("conv: and the second?", "ana"),
        org.assertj.core.groups.Tuple.tuple("conv: and the third?", "ben"));
    assertThat(runs.view(run).modelCalls()).isEqualTo(callsBefore + 5).isEqualTo(ModelCalls.received(run));
    assertThat(store.activePath(run).get(0).json().path("steps").get(0).asText()).isEqualTo("Answer it briefly");
  }

  @Test
  void should_refuse_to_regenerate_a_turn_that_does_not_exist() {
    String run = threeTurns("conv: no turn 4");
    int version = runs.view(run).version();

    assertThatThrownBy(() -> resume.regenerate(run, 4, false, "olga", null))
        .isInstanceOf(UnknownStepException.class).hasMessageContaining("has no turn 4: it has 3 turns");
    assertThat(runs.view(run).version()).isEqualTo(version);
  }

  @Test
  void should_close_an_idle_conversation_when_its_timer_fires() {
    // given a conversation waiting for its next question
    String run = runs.start(CHAT, "conv: idle");
    awaitFollowUpWith(run, 1, 1);

    // when nobody asks anything within conversationIdle
    Job timer = engine.getManagementService().createJobQuery().processInstanceId(run).timers().singleResult();
    assertThat(timer).isNotNull();
    engine.getManagementService().executeJob(timer.getId());

    // then the run ends answered, saying why
    RunView view = runs.view(run);
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.statusReason()).isEqualTo("closed: no follow-up within PT1H");
    assertThat(view.turns()).extracting(ConversationTurn::status).containsExactly(ConversationTurn.Status.ANSWERED);
    assertThatThrownBy(() -> conversations.ask(run, "conv: too late", "ana"))
        .isInstanceOf(ResumeConflictException.class).hasMessageContaining("has ended (ANSWERED)");
  }

  @Test
  void should_end_a_conversation_closed_explicitly() {
    String run = runs.start(CHAT, "conv: close");
    awaitFollowUpWith(run, 1, 1);

    conversations.close(run, "all clear", "ana");

    RunView view = runs.view(run);
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.statusReason()).isEqualTo("closed by ana: all clear");
    assertThat(engine.getHistoryService().createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.CONVERSATION_CLOSED).count()).isEqualTo(1);
    int steps = store.allSteps(run).size();
    assertThatThrownBy(() -> conversations.close(run, "again", "ana")).isInstanceOf(ResumeConflictException.class);
    assertThatThrownBy(() -> conversations.ask(run, "conv: after the close", "ana"))
        .isInstanceOf(ResumeConflictException.class);
    assertThat(store.allSteps(run)).hasSize(steps);
  }

  @Test
  void should_refuse_a_follow_up_while_the_answer_waits_for_review() {
    // given
    String run = runs.start(REVIEWED_CHAT, "conv: under review");
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
    int steps = store.allSteps(run).size();

    // when / then
    assertThatThrownBy(() -> conversations.ask(run, "conv: too early", "ana"))
        .isInstanceOf(ResumeConflictException.class)
        .hasMessageContaining("does not wait for a follow-up question")
        .hasMessageContaining("it waits for " + ReactAgentProcess.REVIEW_ANSWER);
    assertThat(store.allSteps(run)).hasSize(steps);
    assertThat(runs.view(run).waitingFor()).containsExactly(ReactAgentProcess.REVIEW_ANSWER);
  }

  @Test
  void should_let_exactly_one_of_two_concurrent_follow_ups_win() throws Exception {
    String run = runs.start(CHAT, "conv: race");
    awaitFollowUpWith(run, 1, 1);

    java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<String>> outcomes = List.of("conv: first", "conv: second").stream()
        .map(question -> two.submit(() -> {
          go.await();
          try {
            conversations.ask(run, question, "ana");
            return "won";
          } catch (ResumeConflictException e) {
            return "409";
          }
        })).toList();
    go.countDown();
    List<String> results = new java.util.ArrayList<>();
    for (java.util.concurrent.Future<String> outcome : outcomes) {
      results.add(outcome.get());
    }
    two.shutdown();

    assertThat(results).containsExactlyInAnyOrder("won", "409");
    assertThat(store.allSteps(run)).filteredOn(step -> step.content() instanceof FollowUp).hasSize(1);
    awaitFollowUpWith(run, 2, 2);
  }

  @Test
  void should_keep_a_one_shot_agent_ending_with_its_answer() {
    String run = runs.start(TestAgent.KEY, "conv: one shot");

    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).status() == RunStatus.ANSWERED);
    assertThat(runs.view(run).turns()).singleElement()
        .satisfies(turn -> assertThat(turn.status()).isEqualTo(ConversationTurn.Status.ANSWERED));
  }

  @Test
  void should_accept_an_answer_and_ask_the_follow_up_from_the_answer_review() {
    // given an answer waiting for review
    String run = runs.start(REVIEWED_CHAT, "conv: reviewed");
    Task first = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    assertThat(local(first, "decisionOptions")).contains("{\"label\":\"Accept and ask a follow-up\",\"value\":\"follow_up\"}");

    // when the reviewer accepts it and asks the next question in the same form
    submit(first, Map.of("decision", "follow_up", "followUpQuestion", "conv: and then?"));

    // then the next turn is planned and answered at once, and its review shows the earlier turn
    Task second = awaitAnotherTask(run, first);
    assertThat(local(second, "earlierTurns")).isEqualTo("Question 1: conv: reviewed\nAnswer: first answer to"
        + " 'conv: reviewed' after ''");
    assertThat(local(second, "answer")).isEqualTo("first answer to 'conv: and then?' after 'first answer to"
        + " 'conv: reviewed' after '''");
    assertThat(local(second, "subject")).isEqualTo("conv: and then?");
    assertThat(local(second, "attempt")).isEqualTo("1");
    assertThat(runs.view(run).turns()).extracting(ConversationTurn::askedBy, ConversationTurn::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(null, ConversationTurn.Status.ANSWERED),
            org.assertj.core.groups.Tuple.tuple("ann", ConversationTurn.Status.IN_PROGRESS));

    // when the second answer is accepted as it is, the conversation waits for its next question
    submit(second, Map.of("decision", "accept"));
    assertThat(runs.view(run).waitingFor()).containsExactly(RunView.FOLLOW_UP);
  }

  @Test
  void should_refuse_a_follow_up_from_the_review_of_a_one_shot_agent_and_keep_the_task() {
    String run = runs.start(TestAgent.ANSWER_REVIEWED, "conv: one-shot review");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    int steps = store.allSteps(run).size();

    // the form offers no follow-up to a one-shot agent's answer, and a completion asking one is refused
    assertThat(local(review, "decisionOptions")).contains("\"accept\"").doesNotContain("follow_up");
    assertThatThrownBy(() -> submit(review, Map.of("decision", "follow_up", "followUpQuestion", "conv: more?")))
        .hasMessageContaining("this agent answers one question per run");
    assertThatThrownBy(() -> submit(review, Map.of("decision", "follow_up", "followUpQuestion", " ")))
        .hasMessageContaining("write the follow-up question");
    assertThat(store.allSteps(run)).hasSize(steps);
    assertThat(runs.view(run).waitingFor()).containsExactly(ReactAgentProcess.REVIEW_ANSWER);
  }

  @Test
  void should_redo_turn_two_from_the_review_of_turn_five_and_ask_turns_three_to_five_again() {
    // given a five-turn conversation whose fifth answer waits for review
    String run = runs.start(REVIEWED_CHAT, "conv: five turns");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    for (int turn = 2; turn <= 5; turn++) {
      submit(review, Map.of("decision", "follow_up", "followUpQuestion", "conv: question " + turn + "?"));
      review = awaitAnotherTask(run, review);
    }
    List<ConversationTurn> before = runs.view(run).turns();
    assertThat(before).hasSize(5);
    // the form offers this answer (the default) and each earlier turn by its question
    assertThat(local(review, "regenerateTurn")).isEqualTo("5");
    assertThat(local(review, "regenerateTurnOptions")).isEqualTo("[{\"label\":\"This answer (turn 5)\",\"value\":\"5\"},"
        + "{\"label\":\"Turn 1: conv: five turns\",\"value\":\"1\"},{\"label\":\"Turn 2: conv: question 2?\",\"value\":"
        + "\"2\"},{\"label\":\"Turn 3: conv: question 3?\",\"value\":\"3\"},{\"label\":\"Turn 4: conv: question 4?\","
        + "\"value\":\"4\"}]");
    long callsBefore = runs.view(run).modelCalls();

    // when the reviewer of turn 5 redoes turn 2, asking the later questions again
    submit(review, Map.of("decision", "regenerate", "regenerateTurn", "2", "replayLaterTurns", true,
        "regenerateReason", "the tool was down in turn 2"));

    // then the decision is kept on turn 2's old answer with who and why, and turn 2 gets a new answer to review,
    // headed by its question
    assertThat(decisions.of(run)).last().satisfies(decision -> {
      assertThat(decision.stepNo()).isEqualTo(before.get(1).answerStep());
      assertThat(decision.decision()).isEqualTo("regenerate");
      assertThat(decision.author()).isEqualTo("ann");
      assertThat(decision.reason()).isEqualTo("the tool was down in turn 2");
    });
    review = awaitAnotherTask(run, review);
    assertThat(local(review, "answer")).startsWith("second answer to 'conv: question 2?'");
    assertThat(local(review, "subject")).isEqualTo("conv: question 2?");
    assertThat(local(review, "regenerateTurn")).isEqualTo("2");
    // its second attempt: the earlier answer is turn 2's old one, not those of the later turns
    assertThat(local(review, "attempt")).isEqualTo("2");
    assertThat(local(review, "earlierAnswers")).isEqualTo("Answer 1 (#" + before.get(1).answerStep() + "):\n"
        + before.get(1).answer());
    // and each accepted answer asks the next later question again, in order, until turn 5 is answered anew; each
    // review shows the answer its turn had before the redo beside the new one
    for (int turn = 3; turn <= 5; turn++) {
      submit(review, Map.of("decision", "accept"));
      review = awaitAnotherTask(run, review);
      assertThat(local(review, "subject")).isEqualTo("conv: question " + turn + "?");
      assertThat(local(review, "answer")).startsWith("first answer to 'conv: question " + turn + "?'");
      assertThat(local(review, "attempt")).isEqualTo("2");
      assertThat(local(review, "earlierAnswers")).isEqualTo("Answer 1 (#" + before.get(turn - 1).answerStep()
          + ", before an earlier turn was redone):\n" + before.get(turn - 1).answer());
    }
    submit(review, Map.of("decision", "accept"));
    assertThat(runs.view(run).waitingFor()).containsExactly(RunView.FOLLOW_UP);

    // the five turns on the new path: turn 2 answered anew, each later question asked once more, by who asked it
    List<ConversationTurn> after = runs.view(run).turns();
    assertThat(after).extracting(ConversationTurn::question).containsExactly("conv: five turns", "conv: question 2?",
        "conv: question 3?", "conv: question 4?", "conv: question 5?");
    assertThat(after).extracting(ConversationTurn::askedBy).containsExactly(null, "ann", "ann", "ann", "ann");
    assertThat(after.get(1).answer()).startsWith("second answer to 'conv: question 2?'");
    assertThat(after.get(2).answer()).isEqualTo("first answer to 'conv: question 3?' after '" + after.get(1).answer()
        + "'");
    assertThat(store.activePath(run)).filteredOn(step -> step.content() instanceof FollowUp)
        .extracting(step -> ((FollowUp) step.content()).text())
        .containsExactly("conv: question 2?", "conv: question 3?", "conv: question 4?", "conv: question 5?");
    // one call for turn 2's new answer, a plan and an answer for each of turns 3 to 5: each asked once
    assertThat(runs.view(run).modelCalls()).isEqualTo(callsBefore + 7);
    // the old answers of turns 2 to 5 stay stored, off the active path
    assertThat(before.subList(1, 5)).allSatisfy(turn -> assertThat(store.findStep(run, turn.answerStep())
        .orElseThrow().status()).isEqualTo(StepStatus.SUPERSEDED));
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.REPLAY_QUESTIONS.name())).isNull();
  }

  @Test
  void should_redo_an_earlier_turn_from_the_review_without_asking_the_later_ones_and_wait_for_a_follow_up() {
    // given three turns, the third answer under review
    String run = runs.start(REVIEWED_CHAT, "conv: redo, no replay");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    for (int turn = 2; turn <= 3; turn++) {
      submit(review, Map.of("decision", "follow_up", "followUpQuestion", "conv: no replay " + turn + "?"));
      review = awaitAnotherTask(run, review);
    }
    List<ConversationTurn> before = runs.view(run).turns();

    // when turn 2 is redone without the later questions
    submit(review, Map.of("decision", "regenerate", "regenerateTurn", 2, "replayLaterTurns", false,
        "regenerateReason", "redo turn 2 alone"));

    // then its new answer is reviewed, and once accepted the conversation has two turns and waits for a question
    review = awaitAnotherTask(run, review);
    assertThat(local(review, "answer")).startsWith("second answer to 'conv: no replay 2?'");
    submit(review, Map.of("decision", "accept"));
    RunView view = runs.view(run);
    assertThat(view.waitingFor()).containsExactly(RunView.FOLLOW_UP);
    assertThat(view.turns()).extracting(ConversationTurn::question)
        .containsExactly("conv: redo, no replay", "conv: no replay 2?");
    assertThat(store.findStep(run, before.get(2).questionStep()).orElseThrow().status())
        .isEqualTo(StepStatus.SUPERSEDED);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.REPLAY_QUESTIONS.name())).isNull();
  }

  @Test
  void should_regenerate_this_answer_when_the_review_leaves_the_turn_as_it_is() {
    // given two turns, the second answer under review
    String run = runs.start(REVIEWED_CHAT, "conv: this answer");
    Task first = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    submit(first, Map.of("decision", "follow_up", "followUpQuestion", "conv: this answer 2?"));
    Task second = awaitAnotherTask(run, first);
    int answer = runs.view(run).turns().get(1).answerStep();

    // when the reviewer regenerates without choosing a turn (the form leaves the checkbox out then)
    submit(second, Map.of("decision", "regenerate", "regenerateReason", "too short"));

    // then this answer is given again, and turn 1 stays as it was
    Task third = awaitAnotherTask(run, second);
    assertThat(local(third, "answer")).startsWith("second answer to 'conv: this answer 2?'");
    assertThat(decisions.of(run)).last().extracting(dev.agentloop.internal.trace.Decision::stepNo).isEqualTo(answer);
    assertThat(runs.view(run).turns()).hasSize(2);
  }

  @Test
  void should_refuse_a_redo_of_a_turn_that_does_not_fit_and_change_nothing() {
    // given three turns, the third answer under review
    String run = runs.start(REVIEWED_CHAT, "conv: bad redo");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    for (int turn = 2; turn <= 3; turn++) {
      submit(review, Map.of("decision", "follow_up", "followUpQuestion", "conv: bad redo " + turn + "?"));
      review = awaitAnotherTask(run, review);
    }
    Task underReview = review;
    int version = runs.view(run).version();
    int decided = decisions.of(run).size();

    // when / then
    assertThatThrownBy(() -> submit(underReview, redo("4", true)))
        .hasMessageContaining("this run has no turn 4: its turns are numbered 1 to 3");
    assertThatThrownBy(() -> submit(underReview, redo("0", false))).hasMessageContaining("has no turn 0");
    assertThatThrownBy(() -> submit(underReview, redo("-2", false))).hasMessageContaining("has no turn -2");
    assertThatThrownBy(() -> submit(underReview, redo("two", false)))
        .hasMessageContaining("regenerateTurn is the number of the turn to answer again, 1 to 3 (3 is this answer),"
            + " not 'two'");
    assertThatThrownBy(() -> submit(underReview, redo("3", true)))
        .hasMessageContaining("turn 3 is the answer under review: no later questions follow it to ask again");
    assertThatThrownBy(() -> submit(underReview, redo("1", "yes")))
        .hasMessageContaining("replayLaterTurns is true or false, not 'yes'");
    assertThat(runs.view(run).version()).isEqualTo(version);
    assertThat(decisions.of(run)).hasSize(decided);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.REPLAY_QUESTIONS.name())).isNull();
    assertThat(engine.getTaskService().createTaskQuery().taskId(underReview.getId()).count()).isEqualTo(1);
  }

  @Test
  void should_refuse_to_ask_later_questions_again_in_the_review_of_a_one_shot_agent() {
    String run = runs.start(TestAgent.ANSWER_REVIEWED, "conv: one-shot redo");
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    int version = runs.view(run).version();

    assertThatThrownBy(() -> submit(review, redo("1", true)))
        .hasMessageContaining("this agent answers one question per run (conversation=false): it has no later"
            + " questions to ask again; leave replayLaterTurns out");
    assertThat(local(review, "regenerateTurnOptions")).isEqualTo("[{\"label\":\"This answer (turn 1)\",\"value\":\"1\"}]");
    assertThat(runs.view(run).version()).isEqualTo(version);
    assertThat(runs.view(run).waitingFor()).containsExactly(ReactAgentProcess.REVIEW_ANSWER);
  }

  private static Map<String, Object> redo(String turn, Object replay) {
    return Map.of("decision", "regenerate", "regenerateTurn", turn, "replayLaterTurns", replay,
        "regenerateReason", "redo");
  }

  private void submit(Task task, Map<String, Object> fields) {
    Runs.submitForm(engine, task, "ann", fields);
  }

  private Task awaitAnotherTask(String run, Task previous) {
    return await().atMost(Runs.PATIENCE).until(() -> engine.getTaskService().createTaskQuery().processInstanceId(run)
        .taskDefinitionKey(ReactAgentProcess.REVIEW_ANSWER).list().stream()
        .filter(task -> !task.getId().equals(previous.getId())).findFirst().orElse(null), java.util.Objects::nonNull);
  }

  private String local(Task task, String name) {
    return String.valueOf(engine.getTaskService().getVariableLocal(task.getId(), name));
  }

  /** Three turns: the run's question, then two follow-ups by ana and ben. */
  private String threeTurns(String question) {
    String run = runs.start(CHAT, question);
    awaitFollowUpWith(run, 1, 1);
    conversations.ask(run, "conv: and the second?", "ana");
    awaitFollowUpWith(run, 2, 2);
    conversations.ask(run, "conv: and the third?", "ben");
    awaitFollowUpWith(run, 3, 3);
    return run;
  }

  /** Waits until the run waits for a follow-up with this many turns and this many answers on any branch. */
  private void awaitFollowUpWith(String run, int turns, int answers) {
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).waitingFor().contains(RunView.FOLLOW_UP)
        && runs.view(run).turns().size() == turns
        && store.allSteps(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers);
  }
}
