package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.AnswerSettings;
import dev.agentloop.internal.agent.definition.ConversationSettings;
import dev.agentloop.internal.agent.definition.PromptSettings;
import dev.agentloop.internal.agent.definition.ReviewSettings;
import dev.agentloop.internal.agent.definition.RevisionsRunOut;
import dev.agentloop.internal.resilience.EscapeLimits;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.SystemMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ToolCall;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PromptBuilderTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RUN_ID = "run-1";
  private static final String QUESTION = "How many leave days are left?";
  private static final String EARLIER_STEPS_NOTE =
      "[Earlier steps of this run are left out; the most recent ones follow.]";
  private static final AgentSettings SETTINGS =
      new AgentSettings(new PromptSettings("You are a careful agent.", "Make a plan.", 20, 50, 10_000, 0),
          Set.of("*"), new ReviewSettings(true, true, 2, RevisionsRunOut.ACCEPT, Duration.ofHours(1)),
          EscapeLimits.NONE.withMaxSteps(10), ConversationSettings.ONE_SHOT, AnswerSettings.TEXT);

  /** Numbers steps like the store does, starting at {@code firstNo}, with a new turn at each THOUGHT or FINAL_ANSWER. */
  private static List<Step> trace(int firstNo, NewStep... newSteps) {
    List<Step> steps = new ArrayList<>();
    int turn = 0;
    for (NewStep step : newSteps) {
      if (step.kind() == StepKind.THOUGHT || step.kind() == StepKind.FINAL_ANSWER) {
        turn++;
      }
      int no = firstNo + steps.size();
      steps.add(step.at(RUN_ID, no, no == 1 ? null : no - 1, turn, Instant.parse("2025-01-01T00:00:00Z")));
    }
    return steps;
  }

  private static List<Step> trace(NewStep... newSteps) {
    return trace(1, newSteps);
  }

  private static LoopState state(Step plan, List<Step> recent, boolean truncated) {
    RunHead runHead = recent.isEmpty() ? new RunHead(RUN_ID, 0, null, 0, 0) : headOf(recent.get(recent.size() - 1));
    RunRecord run = new RunRecord(RUN_ID, "agent", QUESTION, RunStatus.RUNNING, null, runHead,
        0, 0, 0, Instant.parse("2025-01-01T00:00:00Z"), null, null);
    return new LoopState(run, plan, recent, truncated);
  }

  private static RunHead headOf(Step head) {
    return new RunHead(RUN_ID, 1, head.stepNo(), head.turn(), head.stepNo());
  }

  private static Action action(String callId, String tool, String argumentsJson) {
    try {
      return new Action(callId, tool, JSON.readTree(argumentsJson), null);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static NewStep human(String author, String text) {
    return new NewStep(new HumanInput(text), author);
  }

  @Test
  void should_plan_with_the_planner_prompt_and_the_question() {
    assertThat(PromptBuilder.forPlanning(state(null, List.of(), false), SETTINGS))
        .containsExactly(new SystemMessage("Make a plan."), new UserMessage(QUESTION));
  }

  @Test
  void should_revise_a_plan_with_the_previous_plan_and_the_reviewers_feedback() {
    // given
    Step plan = trace(Steps.plan(List.of("Guess"), Steps.MODEL)).get(0);
    LoopState state = state(plan, List.of(plan, trace(2, human("ann", "Look it up instead")).get(0)), false);

    // when
    List<ChatMessage> messages = PromptBuilder.forPlanning(state, SETTINGS);

    // then
    assertThat(messages).containsExactly(new SystemMessage("Make a plan."), new UserMessage(QUESTION),
        new AssistantMessage("[\"Guess\"]", List.of()), new UserMessage("[ann] Look it up instead"),
        new UserMessage("Revise the plan accordingly and reply with the new plan only."));
  }

  @Test
  void should_number_the_plan_in_the_system_message() {
    // given
    Step plan = trace(Steps.plan(List.of("Read the leave policy", "Count the days"), Steps.MODEL)).get(0);
    LoopState state = state(plan, trace(2, Steps.finalAnswer("12 days")), true);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then
    assertThat(messages.get(0)).isEqualTo(new SystemMessage(
        "You are a careful agent.\n\nPlan:\n1. Read the leave policy\n2. Count the days"));
  }

  @Test
  void should_use_the_system_prompt_alone_without_a_plan() {
    LoopState state = state(null, trace(Steps.finalAnswer("12 days")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages).containsExactly(
        new SystemMessage("You are a careful agent."),
        new UserMessage(QUESTION),
        new AssistantMessage("12 days", List.of()));
  }

  @Test
  void should_send_a_thought_with_its_actions_as_one_assistant_message_then_the_tool_results() {
    // given
    Action sum = action("call_1", "calculator", "{\"expression\":\"30-18\"}");
    Action doc = action("call_2", "read_document", "{\"name\":\"leave.md\"}");
    LoopState state = state(null, trace(
        Steps.thought("I need the policy and a sum."),
        Steps.action(sum),
        Steps.action(doc),
        Steps.observation(Observation.result(sum, "12"), "calculator"),
        Steps.observation(Observation.result(doc, "30 days a year"), "read_document")), false);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then
    assertThat(messages).containsExactly(
        new SystemMessage("You are a careful agent."),
        new UserMessage(QUESTION),
        new AssistantMessage("I need the policy and a sum.", List.of(
            new ToolCall("call_1", "calculator", "{\"expression\":\"30-18\"}"),
            new ToolCall("call_2", "read_document", "{\"name\":\"leave.md\"}"))),
        new ToolResultMessage("call_1", "calculator", "12"),
        new ToolResultMessage("call_2", "read_document", "30 days a year"));
  }

  @Test
  void should_repeat_raw_arguments_exactly_as_the_model_wrote_them() {
    Action raw = new Action("call_1", "calculator", null, "17 times 23");
    LoopState state = state(null, trace(Steps.thought(""), Steps.action(raw),
        Steps.observation(Observation.error(raw, "the arguments must be a JSON object"), Steps.AGENTLOOP)), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages.subList(2, messages.size())).containsExactly(
        new AssistantMessage("", List.of(new ToolCall("call_1", "calculator", "17 times 23"))),
        new ToolResultMessage("call_1", "calculator", "ERROR: the arguments must be a JSON object"));
  }

  @Test
  void should_cut_a_long_observation_for_the_prompt() {
    // given
    Action doc = action("call_1", "read_document", "{\"name\":\"long.md\"}");
    LoopState state = state(null, trace(Steps.thought("Reading."), Steps.action(doc),
        Steps.observation(Observation.result(doc, "r".repeat(80)), "read_document")), false);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then
    assertThat(messages.get(messages.size() - 1)).isEqualTo(new ToolResultMessage("call_1", "read_document",
        "r".repeat(50) + "\n[cut for the prompt: 30 more characters are stored]"));
  }

  @Test
  void should_keep_an_observation_of_exactly_the_limit() {
    Action doc = action("call_1", "read_document", "{}");
    LoopState state = state(null, trace(Steps.thought("Reading."), Steps.action(doc),
        Steps.observation(Observation.result(doc, "r".repeat(50)), "read_document")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages.get(messages.size() - 1)).isEqualTo(new ToolResultMessage("call_1", "read_document", "r".repeat(50)));
  }

  @Test
  void should_drop_a_turn_cut_by_the_window_and_say_that_steps_are_left_out() {
    // given: the window starts inside turn 1, after its thought
    Action first = action("call_1", "search", "{\"q\":\"a\"}");
    Action second = action("call_2", "search", "{\"q\":\"b\"}");
    List<Step> all = trace(
        Steps.thought("one"), Steps.action(first), Steps.observation(Observation.result(first, "A"), "search"),
        Steps.thought("two"), Steps.action(second), Steps.observation(Observation.result(second, "B"), "search"));
    LoopState state = state(null, all.subList(1, all.size()), true);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then
    assertThat(messages).containsExactly(
        new SystemMessage("You are a careful agent."),
        new UserMessage(QUESTION),
        new UserMessage(EARLIER_STEPS_NOTE),
        new AssistantMessage("two", List.of(new ToolCall("call_2", "search", "{\"q\":\"b\"}"))),
        new ToolResultMessage("call_2", "search", "B"));
  }

  @Test
  void should_say_that_steps_are_left_out_when_the_window_is_truncated_at_a_turn_start() {
    List<Step> recent = trace(7, Steps.thought("later"), Steps.finalAnswer("done"));
    LoopState state = state(null, recent, true);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages.get(2)).isEqualTo(new UserMessage(EARLIER_STEPS_NOTE));
    assertThat(messages).hasSize(5);
  }

  @Test
  void should_not_say_that_steps_are_left_out_when_the_whole_run_is_in_the_window() {
    LoopState state = state(null, trace(Steps.thought("one"), Steps.finalAnswer("done")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages).doesNotContain(new UserMessage(EARLIER_STEPS_NOTE));
  }

  @Test
  void should_not_say_that_steps_are_left_out_when_the_window_starts_with_the_plan() {
    // given: the whole run, plan first, as LoopStateReader reads it
    List<Step> recent = trace(Steps.plan(List.of("Read", "Answer"), Steps.MODEL), Steps.thought("one"),
        Steps.finalAnswer("done"));
    LoopState state = state(recent.get(0), recent, false);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then
    assertThat(messages).doesNotContain(new UserMessage(EARLIER_STEPS_NOTE));
  }

  @Test
  void should_send_an_error_observation_without_call_id_as_a_user_message() {
    // given
    LoopState state = state(null, trace(Steps.thought(""),
        Steps.observation(Observation.replyError("your reply was empty"), Steps.AGENTLOOP)), false);

    // when
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    // then: the empty thought without calls is left out
    assertThat(messages).containsExactly(
        new SystemMessage("You are a careful agent."),
        new UserMessage(QUESTION),
        new UserMessage("[AgentLoop] Your last reply could not be used: ERROR: your reply was empty"));
  }

  @Test
  void should_add_the_final_answer_instruction_on_the_final_turn() {
    Action sum = action("call_1", "calculator", "{\"expression\":\"1+1\"}");
    LoopState state = state(null, trace(Steps.thought("sum"), Steps.action(sum),
        Steps.observation(Observation.result(sum, "2"), "calculator")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, true);

    assertThat(messages.get(messages.size() - 1)).isEqualTo(new UserMessage("You have used all 10 steps of this run."
        + " Give your final answer now, from what you have found so far, without calling tools."));
    assertThat(messages.get(messages.size() - 2)).isEqualTo(new ToolResultMessage("call_1", "calculator", "2"));
  }

  @Test
  void should_not_add_the_final_answer_instruction_before_the_final_turn() {
    LoopState state = state(null, trace(Steps.thought("thinking")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages.get(messages.size() - 1)).isEqualTo(new AssistantMessage("thinking", List.of()));
  }

  @Test
  void should_send_human_input_as_a_user_message_with_the_author_in_brackets() {
    LoopState state = state(null, trace(Steps.finalAnswer("12 days"), human("alice", "Please also check travel.md")),
        false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, false);

    assertThat(messages.subList(2, messages.size())).containsExactly(
        new AssistantMessage("12 days", List.of()),
        new UserMessage("[alice] Please also check travel.md"));
  }

  @Test
  void should_put_warnings_after_the_steps_and_the_request_for_the_final_answer_last() {
    Action sum = action("call_1", "calculator", "{\"expression\": \"1 + 1\"}");
    LoopState state = state(null, trace(Steps.thought("Compute."), Steps.action(sum),
        Steps.observation(Observation.result(sum, "2"), "calculator")), false);

    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS,
        "This run is close to its budget (38 of 40 model calls were made).", List.of("you seem to be going round in circles"));

    assertThat(messages.subList(messages.size() - 3, messages.size())).containsExactly(
        new ToolResultMessage("call_1", "calculator", "2"),
        new UserMessage("[AgentLoop] Warning: you seem to be going round in circles"),
        new UserMessage("This run is close to its budget (38 of 40 model calls were made). Give your final answer"
            + " now, from what you have found so far, without calling tools."));
  }
}
