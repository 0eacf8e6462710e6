package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.UnknownRunException;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** The step store on the real database: chains, turns, counters and the versioned head. */
@AgentLoopTest
class StepStoreTest {

  @Autowired StepStore store;
  @Autowired RunInsights insights;
  @Autowired DataSource dataSource;
  private JdbcTemplate jdbc;

  @BeforeEach
  void jdbc() {
    jdbc = new JdbcTemplate(dataSource);
  }

  @Test
  void should_append_a_chain_below_the_head_and_move_the_head() {
    // given
    String runId = newRun();
    RunHead empty = store.run(runId).head();

    // when
    RunHead afterPlan = store.append(empty, List.of(step(StepKind.PLAN)), Usage.modelCall(10)).head();
    Appended turn = store.append(afterPlan, List.of(step(StepKind.THOUGHT), step(StepKind.ACTION)), Usage.modelCall(5));
    RunHead afterTurn = turn.head();

    // then
    assertThat(afterTurn).isEqualTo(store.run(runId).head());
    assertThat(afterTurn.headStep()).isEqualTo(3);
    assertThat(afterTurn.headTurn()).isEqualTo(1);
    assertThat(afterTurn.version()).isEqualTo(2);
    List<Step> path = store.activePath(runId);
    assertThat(path).extracting(Step::stepNo).containsExactly(1, 2, 3);
    assertThat(path).extracting(Step::parentNo).containsExactly(null, 1, 2);
    assertThat(path).extracting(Step::turn).containsExactly(0, 1, 1);
    assertThat(turn.steps()).isEqualTo(path.subList(1, 3));
    RunRecord run = store.run(runId);
    assertThat(run.modelCalls()).isEqualTo(2);
    assertThat(run.tokens()).isEqualTo(15);
  }

  @Test
  void should_refuse_an_append_against_a_stale_head_and_write_nothing() {
    // given two writers that read the same head
    String runId = newRun();
    RunHead head = store.run(runId).head();
    store.append(head, List.of(step(StepKind.PLAN)), Usage.NONE);

    // when the second one appends
    assertThatThrownBy(() -> store.append(head, List.of(step(StepKind.THOUGHT), step(StepKind.ACTION)), Usage.toolCall()))
        .isInstanceOf(StaleHeadException.class)
        .hasMessageContaining(runId);

    // then only the first write is there
    assertThat(store.allSteps(runId)).extracting(Step::kind).containsExactly(StepKind.PLAN);
    assertThat(store.run(runId).toolCalls()).isZero();
  }

  @Test
  void should_read_the_recent_path_root_first() {
    String runId = newRun();
    RunHead head = store.run(runId).head();
    for (int i = 0; i < 10; i++) {
      head = store.append(head, List.of(step(StepKind.THOUGHT)), Usage.NONE).head();
    }

    assertThat(store.recentPath(runId, 3)).extracting(Step::stepNo).containsExactly(8, 9, 10);
    assertThat(store.latestActive(runId, StepKind.THOUGHT)).hasValueSatisfying(s -> assertThat(s.stepNo()).isEqualTo(10));
    assertThat(store.latestActive(runId, StepKind.PLAN)).isEmpty();
  }

  @Test
  void should_record_how_a_run_ended() {
    String runId = newRun();

    store.markEnded(runId, RunStatus.STOPPED, "operator stopped it");

    RunRecord run = store.run(runId);
    assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
    assertThat(run.statusReason()).isEqualTo("operator stopped it");
    assertThat(run.endedAt()).isAfterOrEqualTo(run.createdAt());
  }

  @Test
  void should_store_the_prompts_of_a_long_run_in_space_that_grows_with_the_run_not_with_its_square() {
    // given a run of 300 model calls whose prompts each repeat the whole conversation so far
    String runId = newRun();
    ArrayNode conversation = JsonNodeFactory.instance.arrayNode();
    conversation.addObject().put("role", "system").put("text", "Be careful. ".repeat(20));
    conversation.addObject().put("role", "user").put("text", "a question");
    RunHead head = store.run(runId).head();
    JsonNode middle = null;
    for (int call = 1; call <= 300; call++) {
      conversation.addObject().put("role", "assistant").put("text", "thought " + call + " " + "x".repeat(200));
      conversation.addObject().put("role", "tool").put("callId", "c" + call).put("tool", "calculator")
          .put("text", "result " + call + " " + "y".repeat(200));
      SentPrompt prompt = new SentPrompt("THINK", conversation.deepCopy(), JsonNodeFactory.instance.arrayNode());
      head = store.append(head, List.of(step(StepKind.THOUGHT)),
          Usage.modelCall(StepCost.modelCall(1, 10L, 2L, null), prompt)).head();
      middle = call == 150 ? prompt.messages() : middle;
    }

    // then what is stored is about one conversation long, not 150 of them
    Long stored = jdbc.queryForObject("SELECT SUM(LENGTH(segments)) FROM agentloop_prompt WHERE run_id = ?",
        Long.class, runId);
    assertThat(stored).isLessThan(2L * conversation.toString().length());
    // and each prompt reads back as it was sent
    assertThat(insights.prompt(runId, 150).orElseThrow().messages()).isEqualTo(middle);
    assertThat(insights.prompt(runId, 300).orElseThrow().messages()).isEqualTo(conversation);
  }

  @Test
  void should_read_a_run_with_all_its_steps_once_and_derive_its_views_in_memory() {
    // given a run whose first answer was regenerated: the answer stays stored, superseded
    String runId = newRun();
    RunHead head = store.append(store.run(runId).head(), List.of(step(StepKind.PLAN), step(StepKind.FINAL_ANSWER)),
        Usage.NONE).head();
    Step plan = store.findStep(runId, 1).orElseThrow();
    head = store.rewind(head, plan);
    head = store.append(head, List.of(step(StepKind.FINAL_ANSWER)), Usage.NONE).head();

    // when
    RunState state = store.state(runId);

    // then it holds every step, and the views are those the store reads
    assertThat(state.head()).isEqualTo(head);
    assertThat(state.steps()).isEqualTo(store.allSteps(runId));
    assertThat(state.activePath()).isEqualTo(store.activePath(runId)).extracting(Step::stepNo).containsExactly(1, 3);
    assertThat(state.latestActive(StepKind.FINAL_ANSWER)).isEqualTo(store.latestActive(runId, StepKind.FINAL_ANSWER));
    assertThat(state.headStep()).hasValueSatisfying(step -> assertThat(step.stepNo()).isEqualTo(3));
    assertThat(state.questionsAndAnswers(false)).isEqualTo(store.questionsAndAnswers(runId, false)).hasSize(2);
    assertThat(state.step(2)).hasValueSatisfying(step -> assertThat(step.isActive()).isFalse());
    assertThat(state.step(4)).isEmpty();
    assertThat(state.latestFollowUp()).isEmpty();

    // and after an append, the state goes on without reading the store again
    Appended appended = store.append(head, List.of(step(StepKind.HUMAN_INPUT)), Usage.NONE);
    RunState after = state.after(appended);
    assertThat(after.head()).isEqualTo(store.run(runId).head());
    assertThat(after.activePath()).isEqualTo(store.activePath(runId));
  }

  @Test
  void should_refuse_steps_that_are_not_the_whole_run_in_order() {
    String runId = newRun();
    store.append(store.run(runId).head(), List.of(step(StepKind.PLAN), step(StepKind.THOUGHT)), Usage.NONE);
    List<Step> steps = store.allSteps(runId);
    RunRecord run = store.run(runId);

    assertThatThrownBy(() -> new RunState(run, List.of(steps.get(1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not step 1 of run " + runId);
    assertThatThrownBy(() -> new RunState(store.run(newRun()), steps))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a run's state holds all its steps");
  }

  @Test
  void should_refuse_to_rewind_to_a_handed_step_off_the_path_or_against_a_stale_head_and_change_nothing() {
    // given a run rewound once: step 2 is superseded
    String runId = newRun();
    RunHead head = store.append(store.run(runId).head(), List.of(step(StepKind.PLAN), step(StepKind.THOUGHT)),
        Usage.NONE).head();
    RunState before = store.state(runId);
    RunHead rewound = store.rewind(head, before.step(1).orElseThrow());
    RunState state = store.state(runId);

    // when a step read before the rewind, and now off the path, is handed; or the old head
    assertThatThrownBy(() -> store.rewind(rewound, state.step(2).orElseThrow()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step 2 is not on the active path");
    assertThatThrownBy(() -> store.rewind(head, before.step(1).orElseThrow()))
        .isInstanceOf(StaleHeadException.class);

    // then nothing changed
    assertThat(store.run(runId).head()).isEqualTo(rewound);
    assertThat(store.allSteps(runId)).isEqualTo(state.steps());
  }

  @Test
  void should_tell_an_unknown_run() {
    assertThatThrownBy(() -> store.run("nope")).isInstanceOf(UnknownRunException.class).hasMessage("no run with id nope");
  }

  private String newRun() {
    String runId = UUID.randomUUID().toString();
    store.createRun(runId, "test-agent", "a question");
    return runId;
  }

  private static NewStep step(StepKind kind) {
    return TestSteps.step(kind, kind.name(), "test");
  }
}
