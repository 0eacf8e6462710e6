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
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.EscapeLimits;
import dev.agentloop.internal.resilience.LoopDetector;
import dev.agentloop.internal.resilience.ResilienceMetrics;
import dev.agentloop.internal.telemetry.RunTraces;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.tool.builtin.CalculatorTool;
import dev.agentloop.internal.tool.builtin.CurrentTimeTool;
import dev.agentloop.internal.tool.builtin.HttpGetTool;
import dev.agentloop.internal.tool.builtin.ReadDocumentTool;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Plan;
import dev.agentloop.internal.trace.step.StepContent;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ToolCall;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 10,000 generated malformed or hostile model replies (bad JSON, wrong types, huge strings, unknown
 * tools, deep nesting, control characters, too many calls, duplicate ids) through what a think and an
 * act step do with them: the reply interpreter, then for every call the act step's own path (refusal
 * or the real built-in tools under their time-out), then the escape checks and the next prompt built
 * from the resulting path. Nothing may throw; every reply must end as a final answer, a tool result or
 * an error observation with a message. The counts go to target/fuzz-report.txt. Seeded: repeatable.
 */
class ModelReplyFuzzTest {

  private static final int REPLIES = 10_000;
  private static final int MAX_STEP_CHARS = 20_000;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AgentSettings SETTINGS = new AgentSettings(
      new PromptSettings("You are an agent.", "Plan.", 60, 4_000, MAX_STEP_CHARS, 0), Set.of("*"),
      new ReviewSettings(true, true, 0, RevisionsRunOut.ACCEPT, Duration.ofHours(1)),
      new EscapeLimits(new Budget(30, 40, 60, 0), Duration.ofHours(48), new LoopDetector.Limits(3, 2, 3)),
      ConversationSettings.ONE_SHOT, AnswerSettings.TEXT);
  private static final List<String> TOOLS = List.of("calculator", "current_time", "read_document", "http_get",
      "ask_human");

  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final Random random = new Random(20240605L);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void should_turn_every_hostile_reply_into_an_answer_a_result_or_an_error_observation() throws Exception {
    ToolRegistry registry = new ToolRegistry(List.of(new CalculatorTool(), new CurrentTimeTool(),
        new ReadDocumentTool(Path.of("documents"), 10_000), new HttpGetTool(List.of(), 10_000, Duration.ofSeconds(1)),
        new AskHumanTool()));
    ToolRunner runner = new ToolRunner(registry, pool, Duration.ofSeconds(2), MAX_STEP_CHARS);
    Router router = new Router(new ToolApprovals(registry, Map.of()), registry);
    CallObserver act = new CallObserver(registry, runner, router, new ToolSpans(RunTraces.none()), CallReplay.NONE);
    EscapeChecks checks = new EscapeChecks(new LoopDetector(20, 3), new BudgetCheck(0.9), registry,
        new ResilienceMetrics(new SimpleMeterRegistry()));
    Map<String, Integer> outcomes = new TreeMap<>();

    for (int i = 0; i < REPLIES; i++) {
      ModelReply reply = reply(i % 12);
      String described = "reply " + i + " (kind " + (i % 12) + ")";
      ModelTurn turn = ReplyInterpreter.interpret(reply, 1, MAX_STEP_CHARS);
      List<NewStep> steps = new ArrayList<>(turn.steps());
      if (turn.finalAnswer() != null) {
        assertThat(turn.finalAnswer()).as(described).isNotBlank();
        outcomes.merge("reply: final answer", 1, Integer::sum);
      } else if (turn.actions().isEmpty()) {
        Observation refused = step(steps.get(steps.size() - 1), 1).contentAs(Observation.class);
        assertThat(refused.isError()).as(described).isTrue();
        assertThat(refused.error()).as(described).isNotBlank();
        outcomes.merge("reply: refused, error observation", 1, Integer::sum);
      } else {
        outcomes.merge("reply: tool calls", 1, Integer::sum);
        for (Action action : turn.actions()) {
          NewStep observed = act.observe(action, Turn.newest(List.of()), SETTINGS).toCompletableFuture().join().step();
          Observation observation = step(observed, 1).contentAs(Observation.class);
          assertThat(observation.callId()).as(described).isEqualTo(action.callId());
          assertThat(observation.isError() ? observation.error() : observation.result()).as(described).isNotNull();
          outcomes.merge(observation.isError() ? "  call: " + (observed.author().equals(Steps.AGENTLOOP)
              ? "refused" : "failed") + ", error observation" : "  call: tool result", 1, Integer::sum);
          steps.add(observed);
        }
      }
      assertNextPromptIsWhole(described, state(steps), checks);
    }

    report(outcomes);
    assertThat(outcomes.keySet()).contains("reply: final answer", "reply: refused, error observation",
        "  call: tool result", "  call: refused, error observation", "  call: failed, error observation");
    assertThat(outcomes.get("reply: final answer") + outcomes.get("reply: refused, error observation")
        + outcomes.get("reply: tool calls")).isEqualTo(REPLIES);
  }

  /** What the next think would send: every tool call answered by its result, no text missing. */
  private static void assertNextPromptIsWhole(String described, LoopState state, EscapeChecks checks) {
    EscapeChecks.BeforeThink before = checks.beforeThink(state, SETTINGS);
    List<ChatMessage> messages = PromptBuilder.forThinking(state, SETTINGS, before.finalAnswerRequest(), before.warnings());
    Set<String> called = new HashSet<>();
    Set<String> answered = new HashSet<>();
    for (ChatMessage message : messages) {
      if (message instanceof AssistantMessage assistant) {
        assistant.toolCalls().forEach(call -> assertThat(called.add(call.id())).as(described + ": call ids").isTrue());
      } else if (message instanceof ToolResultMessage result) {
        assertThat(called).as(described + ": a result for a call made").contains(result.callId());
        answered.add(result.callId());
      }
    }
    assertThat(answered).as(described + ": every call answered").isEqualTo(called);
  }

  // ---- replies -----------------------------------------------------------------------------------

  private ModelReply reply(int kind) {
    return switch (kind) {
      case 0 -> text(random.nextInt(20) == 0 ? garbage(MAX_STEP_CHARS + random.nextInt(10_000)) : garbage(300));
      case 1 -> text(List.of("", " ", "\n\t ", "\u0000", "\u200b").get(random.nextInt(5)));
      case 2 -> calls(call(tool(), validArguments()));
      case 3 -> calls(call(tool(), wrongTypes()));
      case 4 -> calls(call(tool(), brokenJson()));
      case 5 -> calls(call(garbage(random.nextInt(3) == 0 ? 300 : 12), validArguments()));
      case 6 -> calls(many(17 + random.nextInt(30)));
      case 7 -> calls(call(tool(), nested(50 + random.nextInt(2_000))));
      case 8 -> calls(call(tool(), "{\"expression\": \"" + "9".repeat(MAX_STEP_CHARS + random.nextInt(50_000)) + "\"}"));
      case 9 -> new ModelReply("two with one id", List.of(new ToolCall("same", tool(), validArguments()),
          new ToolCall("same", tool(), validArguments()), new ToolCall(null, tool(), null), new ToolCall("", null, "")), 0);
      case 10 -> calls(call(tool(), List.of("null", "[]", "\"text\"", "42", "true", "[{\"expression\":\"1\"}]")
          .get(random.nextInt(6))));
      default -> new ModelReply(garbage(100) + "\u0007\ud800" + garbage(10), List.of(call(tool(), "{\"name\": \""
          + "..\\/..\\/etc\\/passwd\\u0000" + "\", \"timezone\": \"\\ud800\"}")), random.nextInt(1000));
    };
  }

  private String tool() {
    return TOOLS.get(random.nextInt(TOOLS.size()));
  }

  private String validArguments() {
    return switch (random.nextInt(5)) {
      case 0 -> "{\"expression\": \"" + random.nextInt(1000) + " * (" + random.nextInt(100) + " + 1) / "
          + random.nextInt(3) + "\"}";
      case 1 -> "{\"timezone\": \"" + List.of("UTC", "Europe/Berlin", "Mars/Olympus", "").get(random.nextInt(4)) + "\"}";
      case 2 -> "{\"name\": \"" + List.of("leave-policy.md", "../pom.xml", "/etc/passwd", "nope.md").get(random.nextInt(4))
          + "\"}";
      case 3 -> "{\"url\": \"http://" + List.of("169.254.169.254/latest", "localhost:8080/engine-rest", "example.com")
          .get(random.nextInt(3)) + "\"}";
      default -> "{\"questions\": [\"" + garbage(20).replace("\"", "") + "\"]}";
    };
  }

  private String wrongTypes() {
    return List.of("{\"expression\": 42}", "{\"expression\": [\"1\", \"+\", \"1\"]}", "{\"expression\": {\"op\": \"+\"}}",
        "{\"timezone\": null}", "{\"name\": true, \"extra\": 1}", "{\"questions\": \"not a list\"}",
        "{\"questions\": []}", "{\"url\": 3.14}").get(random.nextInt(8));
  }

  private String brokenJson() {
    String valid = validArguments();
    return switch (random.nextInt(4)) {
      case 0 -> valid.substring(0, random.nextInt(valid.length()));
      case 1 -> valid.replace('"', '\'');
      case 2 -> "{expression: 1 + 1";
      default -> garbage(80);
    };
  }

  private String nested(int depth) {
    return "{\"a\":".repeat(depth) + "1" + "}".repeat(random.nextInt(3) == 0 ? depth / 2 : depth);
  }

  private List<ToolCall> many(int count) {
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      calls.add(new ToolCall("c" + i, tool(), validArguments()));
    }
    return calls;
  }

  private ToolCall call(String tool, String arguments) {
    return new ToolCall("call_" + random.nextInt(1_000_000), tool, arguments);
  }

  private ModelReply calls(ToolCall... calls) {
    return calls(List.of(calls));
  }

  private ModelReply calls(List<ToolCall> calls) {
    return new ModelReply(random.nextBoolean() ? "" : garbage(40), calls, random.nextInt(5_000));
  }

  private ModelReply text(String text) {
    return new ModelReply(text, List.of(), 0);
  }

  /** Printable and unprintable characters, quotes, braces and the odd surrogate. */
  private String garbage(int length) {
    StringBuilder text = new StringBuilder(length);
    String alphabet = "abc XYZ 019 {}[]\"':,\\ \n\t\u00e9\u4e2d\ud83d\ude00\u0000\u001b<>&%$";
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  // ---- steps as the store would keep them ---------------------------------------------------------

  private static LoopState state(List<NewStep> newSteps) {
    List<Step> steps = new ArrayList<>();
    int turn = 0;
    for (NewStep newStep : newSteps) {
      turn += newStep.kind() == StepKind.THOUGHT || newStep.kind() == StepKind.FINAL_ANSWER ? 1 : 0;
      steps.add(roundTrip(newStep).at("fuzz", steps.size() + 1, steps.isEmpty() ? null : steps.size(), turn,
          Instant.EPOCH));
    }
    RunHead head = new RunHead("fuzz", steps.size(), steps.size(), turn, steps.size());
    RunRecord run = new RunRecord("fuzz", "fuzz-agent", "fuzz", RunStatus.RUNNING, null, head, 1, 0, 0, Instant.EPOCH,
        null, null);
    return new LoopState(run, null, steps, false);
  }

  private static Step step(NewStep newStep, int no) {
    return roundTrip(newStep).at("fuzz", no, null, 1, Instant.EPOCH);
  }

  /** The content as the step store writes and reads it. */
  private static NewStep roundTrip(NewStep step) {
    try {
      StepContent stored = StepContent.fromJson(step.kind(), JSON.readTree(JSON.writeValueAsString(step.json())));
      return new NewStep(stored, step.author(), step.reason());
    } catch (IOException e) {
      throw new AssertionError("step content does not survive the store: " + step, e);
    }
  }

  private static void report(Map<String, Integer> outcomes) throws IOException {
    StringBuilder text = new StringBuilder("\n== Fuzz: " + REPLIES + " malformed or hostile model replies ==\n");
    outcomes.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))
        .forEach(entry -> text.append(String.format("%-36s %5d%n", entry.getKey(), entry.getValue())));
    System.out.println(text);
    Path file = Path.of("target", "fuzz-report.txt");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text.toString());
  }
}
