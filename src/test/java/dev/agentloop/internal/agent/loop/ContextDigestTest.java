package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ToolCall;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The prompt of a long run with a context budget, turn after turn: its beginning stays byte-identical,
 * digest blocks are appended and never rewritten (older ones fold into a coarse block only after the
 * coarse blocks before them), a turn never falls apart, and the digest and the steps sent whole stay
 * within the budget.
 */
class ContextDigestTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RUN_ID = "run-1";
  private static final int BUDGET = 2_000;
  private static final AgentSettings WINDOW_ONLY = settings(0);
  private static final AgentSettings DIGESTING = settings(BUDGET);

  @Test
  void should_keep_the_prompt_prefix_identical_and_append_digest_blocks_in_whole_turns() {
    List<NewStep> written = new ArrayList<>();
    PromptBuilder.Prompt before = null;
    int slides = 0;
    int coarseFolds = 0;
    for (int turn = 1; turn <= 120; turn++) {
      written.addAll(turn(turn));
      PromptBuilder.Prompt prompt = prompt(written, DIGESTING);

      assertWholeTurns(prompt.messages());
      int digestTokens = PromptBuilder.estimatedTokens(digest(prompt).replace("\n" + DigestFormat.HEADER, ""));
      assertThat(restTokens(prompt)).as("turn %d: the steps sent whole, beside the digest", turn)
          .isLessThanOrEqualTo(Math.max(BUDGET - digestTokens, BUDGET / 3));
      if (before != null) {
        int coarse = coarseBlocks(before);
        if (coarseBlocks(prompt) == coarse) {
          assertThat(prompt.messages()).as("turn %d: the stable part of the turn before", turn)
              .startsWith(before.messages().subList(0, before.stable()).toArray(ChatMessage[]::new));
        } else {
          assertThat(coarseBlocks(prompt)).as("turn %d: one coarse block more", turn).isEqualTo(coarse + 1);
          assertThat(prompt.messages()).as("turn %d: the coarse blocks of the turn before", turn)
              .startsWith(before.messages().subList(0, 2 + coarse).toArray(ChatMessage[]::new));
          coarseFolds++;
        }
        if (prompt.messages().subList(0, prompt.stable()).equals(before.messages().subList(0, before.stable()))) {
          assertThat(prompt.messages()).as("turn %d: all of the turn before, then the new turn", turn)
              .startsWith(before.messages().toArray(ChatMessage[]::new));
        } else {
          slides++;
        }
      }
      before = prompt;
    }
    assertThat(slides).as("the window slid in blocks, not at each turn").isBetween(5, 60);
    assertThat(coarseFolds).as("older blocks folded once more").isBetween(3, slides / 2);
    assertThat(digest(before)).contains("#8 read_document page=3 -> Page 3 of the archive. Fact 3: the vault code is 4711.");
    for (int turn = 1; turn <= 120; turn++) {
      assertThat(digest(before) + before.messages()).as("turn %d's call, in the digest or whole", turn)
          .containsAnyOf("read_document page=" + turn + " -> Page " + turn + " of",
              "read_document({\"page\":" + turn + "})", "{\"page\":" + turn + "}");
    }
  }

  @Test
  void should_show_arguments_that_were_no_json_object_as_written_in_a_coarse_line() {
    // given a long run whose fifth call had arguments that were no JSON object
    List<NewStep> written = new ArrayList<>();
    for (int turn = 1; turn <= 80; turn++) {
      if (turn == 5) {
        Action raw = new Action("call_5", "read_document", null, "page five, please");
        written.addAll(List.of(Steps.thought("Reading page 5."), Steps.action(raw), Steps.observation(
            Observation.error(raw, "arguments must be a JSON object"), "read_document")));
      } else {
        written.addAll(turn(turn));
      }
    }

    // when
    PromptBuilder.Prompt prompt = prompt(written, DIGESTING);

    // then the coarse line shows what the model wrote and the error it got, and the next call as usual
    assertThat(coarseBlocks(prompt)).isPositive();
    assertThat(digest(prompt)).contains("#14 read_document page five, please -> ")
        .contains("arguments must be a JSON object").contains("#17 read_document page=6 -> Page 6 of the archive.");
  }

  @Test
  void should_keep_parallel_calls_and_their_results_together_wherever_the_digest_ends() {
    List<NewStep> written = new ArrayList<>();
    for (int turn = 1; turn <= 60; turn++) {
      written.addAll(turn % 3 == 0 ? parallelTurn(turn) : turn(turn));
      PromptBuilder.Prompt prompt = prompt(written, DIGESTING);

      assertWholeTurns(prompt.messages());
      String digest = digest(prompt);
      for (int call = 1; call <= 3; call++) {
        String callId = "par_" + turn + "_" + call;
        boolean digested = digest.contains("search({\"q\":\"" + callId + "\"})")
            || digest.contains("search q=" + callId + " -> ");
        assertThat(digest.contains("-> hits for " + callId)).as(callId).isEqualTo(digested);
      }
    }
  }

  @Test
  void should_send_the_current_question_whole_when_its_follow_up_went_into_a_digest() {
    // given a conversation whose second question was asked 40 turns ago
    List<NewStep> written = new ArrayList<>();
    for (int turn = 1; turn <= 5; turn++) {
      written.addAll(turn(turn));
    }
    written.add(Steps.finalAnswer("The vault code is 4711."));
    String followUp = "And which code opens the door? " + "Please look carefully. ".repeat(20);
    written.add(Steps.followUp(followUp, "ann", null));
    for (int turn = 6; turn <= 45; turn++) {
      written.addAll(turn(turn));
    }

    // when
    List<Step> path = path(written);
    Step asked = path.stream().filter(step -> step.content() instanceof FollowUp).findFirst().orElseThrow();
    PromptBuilder.Prompt prompt = PromptBuilder.thinking(new LoopState(run(path), null, path, false, 0, asked),
        DIGESTING, null, List.of(), PromptBuilder::estimatedTokens);

    // then the digest has it cut, and the question follows the digest whole, after the stable part
    assertThat(digest(prompt)).contains("question: And which code opens the door?").doesNotContain(followUp.strip());
    assertThat(prompt.messages().get(prompt.stable())).isEqualTo(new UserMessage(followUp));
    assertWholeTurns(prompt.messages());
  }

  @Test
  void should_send_the_window_alone_without_a_budget() {
    List<NewStep> written = new ArrayList<>();
    for (int turn = 1; turn <= 30; turn++) {
      written.addAll(turn(turn));
    }

    PromptBuilder.Prompt prompt = prompt(written, WINDOW_ONLY);

    assertThat(digest(prompt)).isEmpty();
    assertThat(prompt.messages()).hasSize(2 + 30 * 2);
    assertThat(prompt.stable()).isEqualTo(2);
  }

  @Test
  void should_refuse_a_negative_budget() {
    assertThatThrownBy(() -> WINDOW_ONLY.prompt().withContextBudgetTokens(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contextBudgetTokens");
  }

  private static AgentSettings settings(int budgetTokens) {
    return new AgentSettings(new PromptSettings("You are a careful agent.", "Make a plan.", 60, 4_000, 200_000,
        budgetTokens), Set.of("*"), new ReviewSettings(true, true, 2, RevisionsRunOut.ACCEPT, Duration.ofHours(1)),
        EscapeLimits.NONE.withMaxSteps(200), ConversationSettings.ONE_SHOT, AnswerSettings.TEXT);
  }

  /** Turn n reads page n of an archive: about 250 tokens, page 3 with the fact. */
  private static List<NewStep> turn(int n) {
    Action read = action("call_" + n, "read_document", "{\"page\":" + n + "}");
    String page = "Page " + n + " of the archive. " + (n == 3 ? "Fact 3: the vault code is 4711. " : "")
        + "Nothing else of note. ".repeat(40 + n % 7);
    return List.of(Steps.thought("Reading page " + n + "."), Steps.action(read),
        Steps.observation(Observation.result(read, page), "read_document"));
  }

  private static List<NewStep> parallelTurn(int n) {
    List<NewStep> steps = new ArrayList<>(List.of(Steps.thought("Three searches at once.")));
    List<Action> calls = new ArrayList<>();
    for (int call = 1; call <= 3; call++) {
      Action search = action("par_" + n + "_" + call, "search", "{\"q\":\"par_" + n + "_" + call + "\"}");
      calls.add(search);
      steps.add(Steps.action(search));
    }
    calls.forEach(search -> steps.add(Steps.observation(Observation.result(search,
        "hits for " + search.callId() + ": " + "a result line. ".repeat(50)), "search")));
    return steps;
  }

  private static PromptBuilder.Prompt prompt(List<NewStep> written, AgentSettings settings) {
    List<Step> path = path(written);
    return PromptBuilder.thinking(new LoopState(run(path), null, path, false), settings, null, List.of(),
        PromptBuilder::estimatedTokens);
  }

  /** Numbers the steps as the store does, a new turn at each thought or answer. */
  private static List<Step> path(List<NewStep> written) {
    List<Step> path = new ArrayList<>();
    int turn = 0;
    for (NewStep step : written) {
      if (step.kind() == StepKind.THOUGHT || step.kind() == StepKind.FINAL_ANSWER) {
        turn++;
      }
      int no = path.size() + 1;
      path.add(step.at(RUN_ID, no, no == 1 ? null : no - 1, turn, Instant.parse("2026-01-01T00:00:00Z")));
    }
    return path;
  }

  private static RunRecord run(List<Step> path) {
    Step head = path.get(path.size() - 1);
    return new RunRecord(RUN_ID, "agent", "Which code opens the vault?", RunStatus.RUNNING, null,
        new RunHead(RUN_ID, 1, head.stepNo(), head.turn(), head.stepNo()), 0, 0, 0,
        Instant.parse("2026-01-01T00:00:00Z"), null, null);
  }

  private static String digest(PromptBuilder.Prompt prompt) {
    return String.join("\n", prompt.messages().stream().filter(UserMessage.class::isInstance)
        .map(m -> ((UserMessage) m).text()).filter(t -> t.startsWith("[AgentLoop] Digest of steps")).toList());
  }

  private static int coarseBlocks(PromptBuilder.Prompt prompt) {
    return (int) prompt.messages().stream().filter(UserMessage.class::isInstance)
        .filter(m -> ((UserMessage) m).text().startsWith(DigestFormat.HEADER) && ((UserMessage) m).text()
            .lines().findFirst().orElseThrow().contains(" in short ")).count();
  }

  private static int restTokens(PromptBuilder.Prompt prompt) {
    return prompt.messages().subList(prompt.stable(), prompt.messages().size()).stream().mapToInt(message -> {
      if (message instanceof AssistantMessage assistant) {
        return PromptBuilder.estimatedTokens(assistant.text()) + assistant.toolCalls().stream()
            .mapToInt(call -> PromptBuilder.estimatedTokens(call.name() + call.arguments())).sum();
      }
      return message instanceof ToolResultMessage result ? PromptBuilder.estimatedTokens(result.text())
          : PromptBuilder.estimatedTokens(((UserMessage) message).text());
    }).sum();
  }

  private static void assertWholeTurns(List<ChatMessage> messages) {
    Set<String> open = new HashSet<>();
    for (ChatMessage message : messages) {
      if (message instanceof AssistantMessage assistant) {
        assertThat(open).as("results before the next assistant message").isEmpty();
        assistant.toolCalls().stream().map(ToolCall::id).forEach(open::add);
      } else if (message instanceof ToolResultMessage result) {
        assertThat(open.remove(result.callId())).as("the call of result %s", result.callId()).isTrue();
      }
    }
    assertThat(open).as("calls without results").isEmpty();
  }

  private static Action action(String callId, String tool, String argumentsJson) {
    try {
      return new Action(callId, tool, JSON.readTree(argumentsJson), null);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
