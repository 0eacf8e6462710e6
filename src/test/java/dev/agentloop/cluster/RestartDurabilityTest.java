package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stand-alone app on its shipped H2 file database dies the hard way (SIGKILL) with 50 runs in
 * progress and is started again on the same file: every run goes on from where it was, every step
 * it had written is still there unchanged, and none is written twice. With a lock of 5 minutes and
 * the default worker id (host name and port, the same after the restart), the restarted node takes
 * back what it had locked at once: the test prints how long after the restart every run was moving
 * again.
 *
 * <p>The crash lands where the test put the runs, whatever the machine's load: the model (a fake
 * OpenAI endpoint in this JVM) holds every run's second model call until the node has been killed
 * and started again.
 */
class RestartDurabilityTest {

  private static final Logger LOG = LoggerFactory.getLogger(RestartDurabilityTest.class);
  private static final int RUNS = 50;
  /** Runs whose start was acknowledged just before the crash: they catch a database that acknowledges before it writes. */
  private static final int JUST_STARTED = 10;
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  /** Steps of a run held at its second model call: plan, thought, action, observation. */
  private static final int HELD_AT = 4;
  /** Without taking its tasks back, a restarted node would wait this long for its own locks. */
  private static final Duration LOCK = Duration.ofMinutes(5);

  static AppNode node;
  static FakeOpenAiServer model;
  /** Holds the second model call of every run until it is opened. */
  static final CountDownLatch SECOND_CALLS = new CountDownLatch(1);

  @AfterAll
  static void stopNode() {
    SECOND_CALLS.countDown();
    if (node != null) {
      node.close();
    }
    if (model != null) {
      model.close();
    }
  }

  @Test
  void should_continue_every_run_from_where_it_was_after_a_crash_and_a_restart() throws IOException {
    // given 40 runs held at their second model call, their first turn written, and 10 runs just started
    model = new FakeOpenAiServer().answerWith(RestartDurabilityTest::reply);
    node = TestNodes.onH2File("restart-node", Path.of("target", "restart", UUID.randomUUID().toString()))
        .property("agentloop.worker.worker-id", "")
        .property("agentloop.worker.lock-duration", LOCK.toString())
        .property("agentloop.llm.provider", "openai")
        .property("agentloop.llm.base-url", model.baseUrl())
        .property("agentloop.llm.model", "test-model")
        // the held second calls wait until the node has died: each holds a model thread meanwhile, so there are
        // threads for all of them and for the first calls of the others, and a held call never times out before the
        // crash it is held for, however long a loaded machine takes to get every run there
        .property("agentloop.llm.max-concurrent-calls", "64")
        .property("agentloop.llm.timeout", "PT10M")
        .environment("AGENTLOOP_LLM_API_KEY", "sk-restart-test")
        .start();
    UnattendedAgent.deployThrough(node.api());
    List<String> midway = node.api().startAll(UnattendedAgent.KEY, RUNS - JUST_STARTED, 8, "restart: crash");
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> midway.stream().allMatch(id -> node.api().run(id).get("steps").asInt() == HELD_AT));
    Map<String, JsonNode> before = traces(midway);
    assertThat(before.values()).as("steps of the runs midway at the crash").allSatisfy(steps ->
        assertThat(list(steps)).extracting(step -> step.get("kind").asText())
            .isEqualTo(TraceCheck.KINDS.subList(0, HELD_AT)));
    List<String> justStarted = node.api().startAll(UnattendedAgent.KEY, JUST_STARTED, JUST_STARTED,
        "restart: just started");

    // when the node dies at once and starts again on the same database
    Instant crash = Instant.now();
    node.kill();
    node.restart();
    Instant up = Instant.now();
    SECOND_CALLS.countDown();

    // then no run is lost, every run answers exactly once, and every step written before the crash is there as it was
    List<String> all = concat(midway, justStarted);
    assertThat(all.stream().filter(id -> node.api().find(id).isEmpty()).toList())
        .as("runs whose start was acknowledged before the crash and that are gone after it")
        .isEmpty();
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> all.stream().allMatch(id -> node.api().run(id).get("status").asText().equals("ANSWERED")));

    // and every run that was not done moved again soon after the restart, not after its lock expired
    Instant lastToMove = all.stream().map(id -> firstStepAfter(node.api().trace(id), crash))
        .flatMap(Optional::stream).max(Comparator.naturalOrder()).orElseThrow();
    Duration recovery = Duration.between(up, lastToMove);
    LOG.info("every run was moving again {} ms after the restarted node was up ({} ms after the crash; lock {})",
        Math.max(0, recovery.toMillis()), Duration.between(crash, lastToMove).toMillis(), LOCK);
    assertThat(recovery).as("time until every run moved again after the restart").isLessThan(LOCK.dividedBy(4));
    assertThat(TraceCheck.problems(node.api(), all)).isEmpty();
    before.forEach((id, steps) -> assertThat(list(node.api().trace(id)).subList(0, steps.size()))
        .as("the steps of run %s written before the crash", id)
        .isEqualTo(list(steps)));

    // and the crash did hit runs in the middle, not only ones that had finished or not begun
    List<String> continued = all.stream().filter(id -> wroteAfter(node.api().trace(id), crash)).toList();
    assertThat(continued).as("every run midway and just started went on after the restart")
        .containsExactlyInAnyOrderElementsOf(all);
    LOG.info("{} runs midway and {} just started at the crash went on after the restart; {} steps written before"
            + " the crash were kept", continued.size() - JUST_STARTED, JUST_STARTED,
        before.values().stream().mapToInt(JsonNode::size).sum());
  }

  /**
   * The fake model: a plan, then 17 * 23 and 391 + 366 with the calculator, then 757, as the cluster
   * script has it. The second call of a run (after one tool result) waits until {@link #SECOND_CALLS}
   * opens; the node killed meanwhile never gets its answer and asks again once restarted.
   */
  private static Response reply(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (!request.body().has("tools")) {
      return ok(FakeOpenAiServer.textCompletion(
          "[\"Compute 17 * 23\", \"Add the days of a leap year\", \"Answer\"]", 40, 12));
    }
    long results = StreamSupport.stream(messages.spliterator(), false)
        .filter(message -> "tool".equals(message.path("role").asText())).count();
    if (results == 0) {
      return ok(FakeOpenAiServer.toolCallCompletion("call_1", "calculator", "{\"expression\": \"17 * 23\"}", 60, 10));
    }
    if (results == 1) {
      awaitOpen(SECOND_CALLS);
      return ok(FakeOpenAiServer.toolCallCompletion("call_2", "calculator", "{\"expression\": \"391 + 366\"}", 70, 10));
    }
    return ok(FakeOpenAiServer.textCompletion("757", 80, 2));
  }

  private static void awaitOpen(CountDownLatch gate) {
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Response ok(String body) {
    return new Response(200, body);
  }

  private static Map<String, JsonNode> traces(List<String> runIds) {
    return runIds.parallelStream().collect(Collectors.toMap(Function.identity(), node.api()::trace));
  }

  /** When the run wrote its first step after the instant; empty for a run that was done before it. */
  private static Optional<Instant> firstStepAfter(JsonNode steps, Instant instant) {
    return list(steps).stream().map(step -> Instant.parse(step.get("createdAt").asText()))
        .filter(created -> created.isAfter(instant)).min(Comparator.naturalOrder());
  }

  private static boolean wroteAfter(JsonNode steps, Instant instant) {
    return list(steps).stream().anyMatch(step -> Instant.parse(step.get("createdAt").asText()).isAfter(instant));
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }

  private static List<JsonNode> list(JsonNode steps) {
    return StreamSupport.stream(steps.spliterator(), false).toList();
  }
}
