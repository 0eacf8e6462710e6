package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.StopReason;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyInterpreterTest {

  private static final int MAX_STEP_CHARS = 10_000;

  private static ModelTurn interpret(String text, ToolCall... calls) {
    return ReplyInterpreter.interpret(new ModelReply(text, List.of(calls), 0), 3, MAX_STEP_CHARS);
  }

  private static List<StepKind> kinds(ModelTurn turn) {
    return turn.steps().stream().map(NewStep::kind).toList();
  }

  @Test
  void should_read_text_alone_as_the_final_answer() {
    // when
    ModelTurn turn = interpret("The answer is 42.");

    // then
    assertThat(kinds(turn)).containsExactly(StepKind.FINAL_ANSWER);
    assertThat(turn.steps().get(0).json().get("text").asText()).isEqualTo("The answer is 42.");
    assertThat(turn.steps().get(0).author()).isEqualTo("model");
    assertThat(turn.finalAnswer()).isEqualTo("The answer is 42.");
    assertThat(turn.actions()).isEmpty();
  }

  @Test
  void should_turn_text_and_tool_calls_into_a_thought_and_one_action_per_call() {
    // when
    ModelTurn turn = interpret("Let me compute and look it up.",
        new ToolCall("call_a", "calculator", "{\"expression\": \"17*23\"}"),
        new ToolCall("call_b", "read_document", "{\"name\": \"leave.md\"}"));

    // then
    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.ACTION, StepKind.ACTION);
    assertThat(turn.steps().get(0).json().get("text").asText()).isEqualTo("Let me compute and look it up.");
    assertThat(turn.finalAnswer()).isNull();
    assertThat(turn.actions()).extracting(Action::callId, Action::tool)
        .containsExactly(
            tuple("call_a", "calculator"),
            tuple("call_b", "read_document"));
    assertThat(turn.actions().get(0).arguments().get("expression").asText()).isEqualTo("17*23");
    assertThat(turn.actions().get(0).hasValidArguments()).isTrue();
    assertThat(turn.steps().get(1).json().toString())
        .isEqualTo("{\"callId\":\"call_a\",\"tool\":\"calculator\",\"arguments\":{\"expression\":\"17*23\"}}");
    assertThat(turn.steps().get(2).json().get("callId").asText()).isEqualTo("call_b");
  }

  @Test
  void should_keep_an_empty_thought_when_the_model_only_calls_tools() {
    ModelTurn turn = interpret("", new ToolCall("c1", "calculator", "{\"expression\": \"1+1\"}"));

    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.ACTION);
    assertThat(turn.steps().get(0).json().get("text").asText()).isEmpty();
  }

  @Test
  void should_replace_blank_call_ids() {
    ModelTurn turn = interpret("", new ToolCall("", "a", "{}"), new ToolCall("  ", "b", "{}"));

    assertThat(turn.actions()).extracting(Action::callId).containsExactly("call_3_1", "call_3_2");
  }

  @Test
  void should_replace_duplicate_call_ids() {
    ModelTurn turn = interpret("",
        new ToolCall("x", "a", "{}"), new ToolCall("x", "b", "{}"), new ToolCall("y", "c", "{}"));

    assertThat(turn.actions()).extracting(Action::callId).containsExactly("x", "call_3_2", "y");
  }

  @Test
  void should_never_hand_out_the_same_call_id_twice() {
    ModelTurn turn = interpret("", new ToolCall("call_3_2", "a", "{}"), new ToolCall("", "b", "{}"));

    assertThat(turn.actions()).extracting(Action::callId).doesNotHaveDuplicates();
  }

  @Test
  void should_keep_arguments_that_are_not_json_as_raw_text() {
    // when
    ModelTurn turn = interpret("", new ToolCall("c1", "calculator", "expression=17*23"));

    // then
    Action action = turn.actions().get(0);
    assertThat(action.hasValidArguments()).isFalse();
    assertThat(action.arguments()).isNull();
    assertThat(action.rawArguments()).isEqualTo("expression=17*23");
    assertThat(turn.steps().get(1).json().toString())
        .isEqualTo("{\"callId\":\"c1\",\"tool\":\"calculator\",\"rawArguments\":\"expression=17*23\"}");
  }

  @Test
  void should_keep_json_that_is_not_an_object_as_raw_text() {
    ModelTurn turn = interpret("",
        new ToolCall("c1", "t", "[1,2]"), new ToolCall("c2", "t", "42"), new ToolCall("c3", "t", "null"));

    assertThat(turn.actions()).extracting(Action::hasValidArguments).containsExactly(false, false, false);
    assertThat(turn.actions()).extracting(Action::rawArguments).containsExactly("[1,2]", "42", "null");
  }

  @Test
  void should_read_empty_arguments_as_an_empty_object() {
    ModelTurn turn = interpret("", new ToolCall("c1", "current_time", ""), new ToolCall("c2", "current_time", "  "));

    assertThat(turn.actions()).allSatisfy(action -> {
      assertThat(action.hasValidArguments()).isTrue();
      assertThat(action.arguments().toString()).isEqualTo("{}");
      assertThat(action.rawArguments()).isNull();
    });
  }

  @Test
  void should_observe_an_empty_reply_as_an_error() {
    // when
    ModelTurn turn = interpret("  \n ");

    // then
    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(turn.steps().get(0).json().get("text").asText()).isEmpty();
    NewStep observation = turn.steps().get(1);
    assertThat(observation.author()).isEqualTo("agentloop");
    assertThat(observation.json().has("callId")).isFalse();
    assertThat(observation.json().get("error").asText())
        .isEqualTo("your reply was empty; call a tool or give your final answer");
    assertThat(turn.actions()).isEmpty();
    assertThat(turn.finalAnswer()).isNull();
  }

  @Test
  void should_refuse_a_reply_larger_than_max_step_chars_naming_its_size() {
    // given: 95 characters of text plus a call of 4 + 8 characters
    ModelReply reply = new ModelReply("a".repeat(95), List.of(new ToolCall("c1", "tool", "{\"x\": 1}")), 0);

    // when
    ModelTurn turn = ReplyInterpreter.interpret(reply, 1, 100);

    // then
    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(turn.actions()).isEmpty();
    assertThat(turn.steps().get(0).json().get("text").asText()).isEqualTo("a".repeat(95));
    assertThat(turn.steps().get(1).json().get("error").asText())
        .isEqualTo("your reply had 107 characters, more than the 100 allowed; answer shorter");
  }

  @Test
  void should_keep_only_a_preview_of_an_oversized_reply_as_thought() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("b".repeat(5_000), List.of(), 0), 1, 1_000);

    assertThat(turn.steps().get(0).json().get("text").asText()).isEqualTo("b".repeat(2_000) + "[…]");
    assertThat(turn.steps().get(1).json().get("error").asText()).startsWith("your reply had 5000 characters");
    assertThat(turn.finalAnswer()).isNull();
  }

  @Test
  void should_accept_a_reply_of_exactly_max_step_chars() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("c".repeat(100), List.of(), 0), 1, 100);

    assertThat(turn.finalAnswer()).isEqualTo("c".repeat(100));
  }

  @Test
  void should_refuse_more_tool_calls_than_allowed_per_turn() {
    // given
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i <= Turn.MAX_CALLS; i++) {
      calls.add(new ToolCall("c" + i, "calculator", "{}"));
    }

    // when
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("many", calls, 0), 1, MAX_STEP_CHARS);

    // then
    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(turn.actions()).isEmpty();
    assertThat(turn.steps().get(1).json().get("error").asText())
        .isEqualTo("you called 17 tools at once (calculator ×17); call at most 16 per turn");
  }

  @Test
  void should_accept_the_maximum_number_of_tool_calls() {
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < Turn.MAX_CALLS; i++) {
      calls.add(new ToolCall("c" + i, "calculator", "{}"));
    }

    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("", calls, 0), 1, MAX_STEP_CHARS);

    assertThat(turn.actions()).hasSize(16);
  }

  @Test
  void should_not_throw_on_deeply_nested_garbage_arguments() {
    // given
    String garbage = "[".repeat(5_000);

    // when / then
    assertThatCode(() -> interpret("", new ToolCall("c1", "t", garbage))).doesNotThrowAnyException();
    Action action = interpret("", new ToolCall("c1", "t", garbage)).actions().get(0);
    assertThat(action.hasValidArguments()).isFalse();
    assertThat(action.rawArguments()).isEqualTo(garbage);
  }

  @Test
  void should_not_throw_on_deeply_nested_valid_json_arguments() {
    String nested = "{\"a\":".repeat(1_500) + "1" + "}".repeat(1_500);

    Action action = interpret("", new ToolCall("c1", "t", nested)).actions().get(0);

    assertThat(action.hasValidArguments()).isFalse();
    assertThat(action.rawArguments()).isEqualTo(nested);
  }

  @Test
  void should_keep_the_reasoning_beside_the_final_answer_and_out_of_its_text() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("391", "17 * 23 is 391.", List.of(), 0), 1, MAX_STEP_CHARS);

    assertThat(kinds(turn)).containsExactly(StepKind.FINAL_ANSWER);
    assertThat(turn.finalAnswer()).isEqualTo("391");
    assertThat(turn.steps().get(0).json().get("text").asText()).isEqualTo("391");
    assertThat(turn.steps().get(0).json().get("reasoning").asText()).isEqualTo("17 * 23 is 391.");
  }

  @Test
  void should_keep_the_reasoning_of_a_tool_calling_turn_in_its_thought() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("", "I need the calculator.",
        List.of(new ToolCall("c1", "calculator", "{}")), 0), 1, MAX_STEP_CHARS);

    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.ACTION);
    assertThat(turn.steps().get(0).json().get("text").asText()).isEmpty();
    assertThat(turn.steps().get(0).json().get("reasoning").asText()).isEqualTo("I need the calculator.");
  }

  @Test
  void should_refuse_a_reply_that_is_only_reasoning_and_keep_the_reasoning() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("", "Let me think about it", List.of(), 0), 1,
        MAX_STEP_CHARS);

    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(turn.finalAnswer()).isNull();
    assertThat(turn.steps().get(0).json().get("reasoning").asText()).isEqualTo("Let me think about it");
    assertThat(turn.steps().get(1).json().get("error").asText())
        .isEqualTo("your reply held only your reasoning, no answer and no tool call; call a tool or give your final answer");
  }

  @Test
  void should_cut_a_huge_reasoning_instead_of_refusing_the_reply() {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply("42", "r".repeat(150), List.of(), 0), 1, 100);

    assertThat(turn.finalAnswer()).isEqualTo("42");
    assertThat(turn.steps().get(0).json().get("reasoning").asText()).startsWith("r".repeat(100))
        .endsWith("[cut: 50 more characters]");
  }

  // --- lenient where it is safe ---

  @Test
  void should_read_arguments_wrapped_in_one_markdown_fence() {
    // when
    ModelTurn json = interpret("", new ToolCall("call_a", "calculator", "```json\n{\"expression\": \"17*23\"}\n```"));
    ModelTurn bare = interpret("", new ToolCall("call_b", "calculator", "  ```\n{\"expression\": \"1+1\"}```  "));

    // then
    assertThat(json.actions().get(0).hasValidArguments()).isTrue();
    assertThat(json.actions().get(0).arguments().get("expression").asText()).isEqualTo("17*23");
    assertThat(bare.actions().get(0).arguments().get("expression").asText()).isEqualTo("1+1");
  }

  @Test
  void should_keep_arguments_raw_when_a_fence_holds_no_json_object_or_there_are_two() {
    // when
    ModelTurn notJson = interpret("", new ToolCall("call_a", "calculator", "```json\nexpression: 17*23\n```"));
    ModelTurn twoFences = interpret("", new ToolCall("call_b", "calculator",
        "```json\n{\"a\": 1}\n```\n```json\n{\"b\": 2}\n```"));

    // then the act step reports them to the model, as written
    assertThat(notJson.actions().get(0).hasValidArguments()).isFalse();
    assertThat(notJson.steps().get(1).json().get("rawArguments").asText()).isEqualTo("```json\nexpression: 17*23\n```");
    assertThat(twoFences.actions().get(0).hasValidArguments()).isFalse();
  }

  // --- replies cut at the output limit ---

  @Test
  void should_never_take_a_reply_cut_at_the_output_limit_as_a_final_answer() {
    // given
    ModelReply cut = new ModelReply("The answer is 7", "", List.of(), TokenCounts.UNREPORTED,
        StopReason.cut("max_tokens", "max tokens 16", "raise agentloop.llm.anthropic.max-tokens"));

    // when
    ModelTurn turn = ReplyInterpreter.interpret(cut, 3, MAX_STEP_CHARS);

    // then the text is kept as a thought with its stop reason, the model is told, and nothing is answered
    assertThat(turn.finalAnswer()).isNull();
    assertThat(turn.cut()).isEqualTo(cut.stop());
    assertThat(kinds(turn)).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(turn.steps().get(0).json().toString())
        .isEqualTo("{\"text\":\"The answer is 7\",\"stopReason\":\"max_tokens\"}");
    assertThat(turn.steps().get(1).json().get("error").asText())
        .contains("your reply was cut at the output limit (max tokens 16) and was not used");
  }

  @Test
  void should_never_run_a_tool_call_cut_at_the_output_limit() {
    // given a call whose arguments end mid-value
    ModelReply cut = new ModelReply("", "", List.of(new ToolCall("call_a", "calculator", "{\"expression\": \"17 *")),
        TokenCounts.UNREPORTED, StopReason.cut("length", "the endpoint's own limit per reply", "raise it"));

    // when
    ModelTurn turn = ReplyInterpreter.interpret(cut, 3, MAX_STEP_CHARS);

    // then no action is written, so none can run (not even after a retry)
    assertThat(turn.actions()).isEmpty();
    assertThat(kinds(turn)).doesNotContain(StepKind.ACTION);
    assertThat(turn.steps().get(1).json().get("error").asText()).contains("its tool calls (calculator ×1) were not run");
  }

  @Test
  void should_record_the_stop_reason_of_complete_replies() {
    // when
    ModelTurn answer = ReplyInterpreter.interpret(new ModelReply("42", "", List.of(), TokenCounts.UNREPORTED,
        StopReason.of("end_turn")), 3, MAX_STEP_CHARS);
    ModelTurn call = ReplyInterpreter.interpret(new ModelReply("", "", List.of(new ToolCall("c", "calculator", "{}")),
        TokenCounts.UNREPORTED, StopReason.of("tool_calls")), 3, MAX_STEP_CHARS);

    // then
    assertThat(answer.steps().get(0).json().get("stopReason").asText()).isEqualTo("end_turn");
    assertThat(call.steps().get(0).json().get("stopReason").asText()).isEqualTo("tool_calls");
    assertThat(answer.cut()).isNull();
  }
}
