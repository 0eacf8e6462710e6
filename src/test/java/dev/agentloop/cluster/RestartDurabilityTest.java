package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
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
 * it had written is still there unchanged, and none is written twice. With the default lock of
 * 5 minutes and the default worker id (host name and port, the same after the restart), the
 * restarted node takes back what it had locked at once: the test prints how long after the restart
 * every run was moving again.
 */
class RestartDurabilityTest {

  private static final Logger LOG = LoggerFactory.getLogger(RestartDurabilityTest.class);
  private static final int RUNS = 50;
  /** Runs whose start was acknowledged just before the crash: they catch a database that acknowledges before it writes. */
  private static final int JUST_STARTED = 10;
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  /** The shipped default: without taking its tasks back, a restarted node would wait this long for its own locks. */
  private static final Duration LOCK = Duration.ofMinutes(5);

  static AppNode node;

  @AfterAll
  static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void should_continue_every_run_from_where_it_was_after_a_crash_and_a_restart() {
    // given 40 runs under way (1 s per model call), some with a model turn written, and 10 runs just started
    node = TestNodes.onH2File("restart-node", Path.of("target", "restart", UUID.randomUUID().toString()))
        .property("agentloop.worker.worker-id", "")
        .property("agentloop.worker.lock-duration", LOCK.toString())
        .start();
    UnattendedAgent.deployThrough(node.api());
    List<String> midway = node.api().startAll(UnattendedAgent.KEY, RUNS - JUST_STARTED, 8, "restart: crash");
    // not all of them: on a busy machine the first runs would be done before the last had begun
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> midway.stream().filter(id -> node.api().run(id).get("steps").asInt() >= 2).count() >= 10);
    Map<String, JsonNode> before = traces(midway);
    List<String> justStarted = node.api().startAll(UnattendedAgent.KEY, JUST_STARTED, JUST_STARTED,
        "restart: just started");

    // when the node dies at once and starts again on the same database
    Instant crash = Instant.now();
    node.kill();
    node.restart();
    Instant up = Instant.now();

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
    assertThat(continued).containsAll(justStarted);
    assertThat(continued).as("runs midway that went on after the restart").hasSizeGreaterThan(JUST_STARTED);
    LOG.info("{} runs midway and {} just started at the crash went on after the restart; {} steps written before"
            + " the crash were kept", continued.size() - JUST_STARTED, JUST_STARTED,
        before.values().stream().mapToInt(JsonNode::size).sum());
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
