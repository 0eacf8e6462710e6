package dev.agentloop.internal.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One run's eight {@code http_get} calls to a server that trickles its body a byte a second, next to
 * another run's calculator call, on the real engine with tool time-outs long enough to matter. Its own
 * context: the script names the trickling server's port, and the tool time-out is 20 s here.
 */
@AgentLoopTest
class ToolBulkheadScenarioTest {

  private static final int SLOW_CALLS = 8;
  private static final AtomicInteger TRICKLING = new AtomicInteger();
  private static final AtomicInteger HUNG_UP = new AtomicInteger();
  private static final ExecutorService SERVER_THREADS = Executors.newCachedThreadPool();
  private static final HttpServer SERVER = trickler();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @DynamicPropertySource
  static void scriptWithTheServersPort(DynamicPropertyRegistry registry) throws IOException {
    String base = "http://127.0.0.1:" + SERVER.getAddress().getPort();
    String calls = IntStream.rangeClosed(1, SLOW_CALLS)
        .mapToObj(i -> "{\"tool\": \"http_get\", \"arguments\": {\"url\": \"" + base + "/trickle/" + i + "\"}}")
        .collect(Collectors.joining(", "));
    Path script = Files.createTempFile("bulkhead-script", ".json");
    script.toFile().deleteOnExit();
    Files.writeString(script, """
        {"scenarios": [
          {"name": "slow", "question": "^slow:", "turns": [
            {"thought": "Fetch them all.", "toolCalls": [%s]},
            {"finalAnswer": "fetched"}]},
          {"name": "quick", "question": "^quick:", "turns": [
            {"thought": "Compute.", "toolCalls": [{"tool": "calculator", "arguments": {"expression": "6 * 7"}}]},
            {"finalAnswer": "42"}]}
        ]}
        """.formatted(calls));
    registry.add("agentloop.llm.scripted.script", () -> script.toUri().toString());
    registry.add("agentloop.tools.timeout", () -> "PT20S");
    registry.add("agentloop.tools.http-get.timeout", () -> "PT10M");
    registry.add("agentloop.tools.http-get.allowed-hosts", () -> "127.0.0.1");
    // one attempt per call: the time-out is what this test is about, not its retries
    registry.add("agentloop.resilience.retry.max-attempts", () -> "1");
    // a context of its own needs an engine name of its own: /engine-rest serves the JVM's "default" engine, which
    // belongs to the shared test context
    registry.add("camunda.bpm.process-engine-name", () -> "toolBulkhead");
  }

  @AfterAll
  static void stopServer() {
    SERVER.stop(0);
    SERVER_THREADS.shutdownNow();
  }

  @Test
  void should_answer_another_runs_calculator_call_while_one_runs_http_gets_hang() {
    // given a run whose eight calls hang on the trickling server, as many as the tools may run at once
    String slow = start("slow: fetch eight pages");
    await().atMost(Runs.PATIENCE).until(() -> TRICKLING.get() == SLOW_CALLS);

    // when another run calls the calculator
    String quick = start("quick: 6 * 7");

    // then it answers while the first run's calls still hang
    RunView answered = Runs.awaitView(runs, quick,
        view -> view.status() == RunStatus.ANSWERED && view.finalAnswer() != null);
    assertThat(answered.finalAnswer()).isEqualTo("42");
    assertThat(observations(slow)).as("the slow run's calls are still hanging").isEmpty();
    assertThat(TRICKLING).hasValue(SLOW_CALLS);

    // and the tool time-out ends each slow call: the model reads that, and the server sees its connection closed
    await().atMost(Runs.PATIENCE).until(() -> observations(slow).size() == SLOW_CALLS);
    assertThat(observations(slow))
        .allSatisfy(observation -> assertThat(observation.text("error")).contains("did not finish within 20 s"));
    await().atMost(Runs.PATIENCE).until(() -> HUNG_UP.get() == SLOW_CALLS);
  }

  private String start(String question) {
    return engine.getRuntimeService()
        .startProcessInstanceByKey(TestAgent.KEY, ReactAgentProcess.QUESTION.with(question)).getId();
  }

  private List<Step> observations(String run) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == StepKind.OBSERVATION).toList();
  }

  /** Answers every request with a body of a byte a second for ten minutes, and counts who hangs up. */
  private static HttpServer trickler() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/trickle", ToolBulkheadScenarioTest::trickle);
      server.setExecutor(SERVER_THREADS);
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void trickle(HttpExchange exchange) throws IOException {
    exchange.sendResponseHeaders(200, 0);
    TRICKLING.incrementAndGet();
    try (OutputStream out = exchange.getResponseBody()) {
      for (int i = 0; i < 600; i++) {
        out.write('x');
        out.flush();
        Thread.sleep(1_000);
      }
    } catch (IOException hungUp) {
      TRICKLING.decrementAndGet();
      HUNG_UP.incrementAndGet();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
