package dev.agentloop.internal.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.TestTools;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ToolRunnerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNode TEXT_SCHEMA = TestTools.parse("""
      {"type": "object", "properties": {"text": {"type": "string"}},
       "required": ["text"], "additionalProperties": false}
      """);

  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static AgentTool tool(String name, TestTools.Body body) {
    return TestTools.tool(name, false, TEXT_SCHEMA, body);
  }

  private static AgentTool tool(String name, JsonNode schema, TestTools.Body body) {
    return TestTools.tool(name, false, schema, body);
  }

  private ToolRunner runner(Duration timeout, int maxResultChars, AgentTool... tools) {
    return new ToolRunner(new ToolRegistry(List.of(tools)), pool, timeout, maxResultChars);
  }

  private ToolRunner runner(AgentTool... tools) {
    return runner(Duration.ofSeconds(5), 1_000, tools);
  }

  private static ToolOutcome outcome(ToolRunner runner, String tool, JsonNode arguments) throws Exception {
    CompletableFuture<ToolOutcome> stage = runner.run(tool, arguments).toCompletableFuture();
    ToolOutcome outcome = stage.get(5, TimeUnit.SECONDS);
    assertThat(stage.isCompletedExceptionally()).isFalse();
    return outcome;
  }

  private static JsonNode text(String text) {
    return JSON.createObjectNode().put("text", text);
  }

  @Test
  void should_return_the_result_of_a_tool() throws Exception {
    // given
    ToolRunner runner = runner(tool("echo", arguments -> "echo: " + arguments.get("text").asText()));

    // when
    ToolOutcome outcome = outcome(runner, "echo", text("hi"));

    // then
    assertThat(outcome.failed()).isFalse();
    assertThat(outcome.result()).isEqualTo("echo: hi");
    assertThat(outcome.failure()).isNull();
  }

  @Test
  void should_turn_a_null_result_into_empty_text() throws Exception {
    ToolRunner runner = runner(tool("quiet", arguments -> null));

    assertThat(outcome(runner, "quiet", text("x"))).isEqualTo(ToolOutcome.success(""));
  }

  @Test
  void should_report_an_unknown_tool_with_the_available_tools() throws Exception {
    // given
    ToolRunner runner = runner(tool("echo", arguments -> "x"), tool("upper", arguments -> "X"));

    // when
    ToolOutcome outcome = outcome(runner, "translate", text("hi"));

    // then
    assertThat(outcome.result()).isNull();
    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.UNKNOWN_TOOL,
        "there is no tool named 'translate'; available tools: echo, upper"));
  }

  @Test
  void should_report_invalid_arguments_with_the_violation_without_running_the_tool() throws Exception {
    // given
    AtomicBoolean ran = new AtomicBoolean();
    ToolRunner runner = runner(tool("echo", arguments -> {
      ran.set(true);
      return "x";
    }));

    // when
    ToolOutcome outcome = outcome(runner, "echo", TestTools.parse("{\"text\": 42}"));

    // then
    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.INVALID_ARGUMENTS,
        "arguments for 'echo' do not match its schema: /text: integer found, string expected"));
    assertThat(ran).isFalse();
  }

  @Test
  void should_join_several_violations_with_semicolons() throws Exception {
    ToolRunner runner = runner(tool("echo", arguments -> "x"));

    ToolOutcome outcome = outcome(runner, "echo", TestTools.parse("{\"loud\": true}"));

    assertThat(outcome.failure().kind()).isEqualTo(FailureKind.INVALID_ARGUMENTS);
    assertThat(outcome.failure().message())
        .startsWith("arguments for 'echo' do not match its schema: ")
        .contains("required property 'text' not found")
        .contains("property 'loud' is not defined in the schema")
        .contains("; ");
  }

  @Test
  void should_pass_on_the_message_of_a_tool_exception_exactly() throws Exception {
    ToolRunner runner = runner(tool("lookup", arguments -> {
      throw new ToolException("no document named 'x'; available documents: a.md");
    }));

    ToolOutcome outcome = outcome(runner, "lookup", text("x"));

    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.FAILED,
        "no document named 'x'; available documents: a.md"));
  }

  @Test
  void should_report_a_runtime_exception_with_its_message() throws Exception {
    ToolRunner runner = runner(tool("fragile", arguments -> {
      throw new IllegalStateException("database is down");
    }));

    ToolOutcome outcome = outcome(runner, "fragile", text("x"));

    assertThat(outcome.failure().kind()).isEqualTo(FailureKind.FAILED);
    assertThat(outcome.failure().message()).isEqualTo("'fragile' failed: database is down");
  }

  @Test
  void should_name_the_exception_class_when_it_has_no_message() throws Exception {
    ToolRunner runner = runner(tool("fragile", arguments -> {
      throw new IllegalStateException();
    }));

    ToolOutcome outcome = outcome(runner, "fragile", text("x"));

    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.FAILED,
        "'fragile' failed: IllegalStateException"));
  }

  @Test
  void should_report_an_error_thrown_by_a_tool_as_a_failure() throws Exception {
    ToolRunner runner = runner(tool("broken", arguments -> {
      throw new AssertionError("impossible state");
    }));

    ToolOutcome outcome = outcome(runner, "broken", text("x"));

    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.FAILED,
        "'broken' failed: impossible state"));
  }

  @Test
  void should_time_out_a_hanging_tool_and_interrupt_its_thread() throws Exception {
    // given
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch interruptSeen = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    ToolRunner runner = runner(Duration.ofMillis(200), 1_000, tool("hang", arguments -> {
      try {
        never.await();
        return "finished";
      } catch (InterruptedException e) {
        interrupted.set(true);
        interruptSeen.countDown();
        throw e;
      }
    }));

    // when
    ToolOutcome outcome = outcome(runner, "hang", text("x"));

    // then
    assertThat(outcome.failure().kind()).isEqualTo(FailureKind.TIMED_OUT);
    assertThat(outcome.failure().message()).startsWith("'hang' did not finish within ");
    assertThat(interruptSeen.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(interrupted).isTrue();
  }

  @Test
  void should_state_a_sub_second_timeout_readably() throws Exception {
    ToolRunner runner = runner(Duration.ofMillis(200), 1_000, tool("hang", arguments -> {
      new CountDownLatch(1).await();
      return "finished";
    }));

    ToolOutcome outcome = outcome(runner, "hang", text("x"));

    assertThat(outcome.failure()).isEqualTo(new ToolOutcome.Failure(FailureKind.TIMED_OUT,
        "'hang' did not finish within 200 ms"));
  }

  @Test
  void should_cut_a_long_result_with_a_note() throws Exception {
    ToolRunner runner = runner(Duration.ofSeconds(5), 10, tool("chatty", arguments -> "0123456789abcdef"));

    ToolOutcome outcome = outcome(runner, "chatty", text("x"));

    assertThat(outcome.result()).isEqualTo("0123456789\n[cut: 6 more characters]");
  }

  @Test
  void should_keep_a_result_of_exactly_max_result_chars() throws Exception {
    ToolRunner runner = runner(Duration.ofSeconds(5), 10, tool("exact", arguments -> "0123456789"));

    assertThat(outcome(runner, "exact", text("x")).result()).isEqualTo("0123456789");
  }

  @Test
  void should_run_other_tools_at_once_while_one_tool_has_all_its_calls_hanging() throws Exception {
    // given a bulkhead of two calls per tool on elastic threads, and two calls of a tool that hang
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      CountDownLatch hanging = new CountDownLatch(2);
      ToolRunner runner = new ToolRunner(new ToolRegistry(List.of(
          tool("stuck", arguments -> {
            hanging.countDown();
            Thread.sleep(600_000);
            return "never";
          }),
          tool("echo", arguments -> "echo: " + arguments.get("text").asText()))),
          threads, Duration.ofSeconds(30), 2, 1_000, ToolCallGuard.NONE);
      CompletableFuture<ToolOutcome> first = runner.run("stuck", text("1")).toCompletableFuture();
      CompletableFuture<ToolOutcome> second = runner.run("stuck", text("2")).toCompletableFuture();
      assertThat(hanging.await(5, TimeUnit.SECONDS)).isTrue();

      // when another tool is called, and the hanging tool a third time
      CompletableFuture<ToolOutcome> third = runner.run("stuck", text("3")).toCompletableFuture();
      ToolOutcome other = outcome(runner, "echo", text("hi"));

      // then the other tool answers at once, and the third call waits its turn, holding no thread
      assertThat(other.result()).isEqualTo("echo: hi");
      assertThat(List.of(first, second, third)).noneMatch(CompletableFuture::isDone);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void should_report_a_call_that_timed_out_waiting_for_its_turn_and_never_run_it() throws Exception {
    // given a bulkhead of one call per tool, taken by a call that ignores interrupts until released
    ExecutorService threads = Executors.newCachedThreadPool();
    CountDownLatch release = new CountDownLatch(1);
    try {
      AtomicInteger ran = new AtomicInteger();
      CountDownLatch hanging = new CountDownLatch(1);
      ToolRunner runner = new ToolRunner(new ToolRegistry(List.of(tool("stubborn", arguments -> {
        ran.incrementAndGet();
        if (arguments.get("text").asText().equals("first")) {
          hanging.countDown();
          while (release.getCount() > 0) {
            try {
              release.await();
            } catch (InterruptedException ignored) {
              // a tool bean that ignores interrupts: the JVM cannot take its thread back
            }
          }
        }
        return "ran " + arguments.get("text").asText();
      }))), threads, Duration.ofMillis(500), 1, 1_000, ToolCallGuard.NONE);
      CompletableFuture<ToolOutcome> first = runner.run("stubborn", text("first")).toCompletableFuture();
      assertThat(hanging.await(5, TimeUnit.SECONDS)).isTrue();

      // when a second call waits behind it longer than the time-out
      ToolOutcome second = outcome(runner, "stubborn", text("second"));

      // then both are reported as timed out
      assertThat(second.failure().kind()).isEqualTo(FailureKind.TIMED_OUT);
      assertThat(first.get(5, TimeUnit.SECONDS).failure().kind()).isEqualTo(FailureKind.TIMED_OUT);

      // and once the stubborn call returns, the second, given up, is skipped, and the tool serves again
      release.countDown();
      assertThat(outcome(runner, "stubborn", text("third")).result()).isEqualTo("ran third");
      assertThat(ran).as("calls that ran: first and third, never the second").hasValue(2);
    } finally {
      release.countDown();
      threads.shutdownNow();
    }
  }
}
