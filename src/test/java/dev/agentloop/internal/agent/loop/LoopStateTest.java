package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopStateTest {

  private static final String RUN_ID = "run-1";

  /** Numbers steps like the store does: 1, 2, ... with a new turn at each THOUGHT or FINAL_ANSWER. */
  private static List<Step> trace(NewStep... newSteps) {
    List<Step> steps = new ArrayList<>();
    int turn = 0;
    for (NewStep step : newSteps) {
      if (step.kind() == StepKind.THOUGHT || step.kind() == StepKind.FINAL_ANSWER) {
        turn++;
      }
      int no = steps.size() + 1;
      steps.add(step.at(RUN_ID, no, no == 1 ? null : no - 1, turn, Instant.parse("2025-01-01T00:00:00Z")));
    }
    return steps;
  }

  private static LoopState state(List<Step> recent) {
    Step head = recent.isEmpty() ? null : recent.get(recent.size() - 1);
    RunHead runHead = new RunHead(RUN_ID, recent.size(), head == null ? null : head.stepNo(),
        head == null ? 0 : head.turn(), recent.size());
    RunRecord run = new RunRecord(RUN_ID, "agent", "How many days?", RunStatus.RUNNING, null, runHead,
        0, 0, 0, Instant.parse("2025-01-01T00:00:00Z"), null, null);
    return new LoopState(run, null, recent, false);
  }

  private static Action action(String callId, String tool) {
    return new Action(callId, tool, JsonNodeFactory.instance.objectNode().put("q", callId), null);
  }

  private static NewStep observed(Action action) {
    return Steps.observation(Observation.result(action, "result of " + action.callId()), action.tool());
  }

  @Test
  void should_return_the_unobserved_actions_of_the_newest_turn_in_order() {
    // given
    Action a = action("a", "search");
    Action b = action("b", "calculator");
    Action c = action("c", "search");
    Action d = action("d", "read_document");
    LoopState state = state(trace(
        Steps.thought("first"), Steps.action(a), observed(a),
        Steps.thought("second"), Steps.action(b), Steps.action(c), Steps.action(d), observed(c)));

    // when
    List<Action> pending = state.turn().open();

    // then
    assertThat(pending).containsExactly(b, d);
  }

  @Test
  void should_return_all_actions_right_after_the_thought() {
    Action a = action("a", "search");
    Action b = action("b", "search");
    LoopState state = state(trace(Steps.thought("go"), Steps.action(a), Steps.action(b)));

    assertThat(state.turn().open()).containsExactly(a, b);
  }

  @Test
  void should_keep_raw_arguments_of_pending_actions() {
    Action raw = new Action("r", "calculator", null, "17 times 23");
    LoopState state = state(trace(Steps.thought(""), Steps.action(raw)));

    assertThat(state.turn().open()).containsExactly(raw);
    assertThat(state.turn().open().get(0).hasValidArguments()).isFalse();
  }

  @Test
  void should_not_look_past_the_newest_thought() {
    // given: an older turn with an action that was never observed
    Action old = action("old", "search");
    Action current = action("new", "search");
    LoopState state = state(trace(Steps.thought("one"), Steps.action(old), Steps.thought("two"), Steps.action(current)));

    // then
    assertThat(state.turn().open()).containsExactly(current);
  }

  @Test
  void should_be_empty_when_all_actions_are_observed() {
    Action a = action("a", "search");
    Action b = action("b", "search");
    LoopState state = state(trace(Steps.thought("go"), Steps.action(a), Steps.action(b), observed(b), observed(a)));

    assertThat(state.turn().open()).isEmpty();
  }

  @Test
  void should_be_empty_when_the_head_is_a_final_answer() {
    Action a = action("a", "search");
    LoopState state = state(trace(Steps.thought("go"), Steps.action(a), observed(a), Steps.finalAnswer("42")));

    assertThat(state.turn().open()).isEmpty();
  }

  @Test
  void should_be_empty_when_the_head_is_human_input() {
    Action a = action("a", "search");
    NewStep note = new NewStep(new HumanInput("stop"), "alice");
    LoopState state = state(trace(Steps.thought("go"), Steps.action(a), note));

    assertThat(state.turn().open()).isEmpty();
  }

  @Test
  void should_be_empty_after_a_refused_reply() {
    LoopState state = state(trace(Steps.thought(""),
        Steps.observation(Observation.replyError("your reply was empty"), Steps.AGENTLOOP)));

    assertThat(state.turn().open()).isEmpty();
  }

  @Test
  void should_be_empty_without_steps() {
    LoopState state = state(List.of());

    assertThat(state.turn().open()).isEmpty();
    assertThat(state.headStep()).isEmpty();
    assertThat(state.nextTurn()).isEqualTo(1);
  }

  @Test
  void should_know_its_head_step_and_next_turn() {
    List<Step> steps = trace(Steps.thought("one"), Steps.finalAnswer("two"));
    LoopState state = state(steps);

    assertThat(state.headStep()).contains(steps.get(1));
    assertThat(state.nextTurn()).isEqualTo(3);
  }
}
