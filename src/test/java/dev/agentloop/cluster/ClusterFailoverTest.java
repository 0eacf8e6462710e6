package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two AgentLoop nodes, each a JVM of its own, form a Camunda cluster on one real PostgreSQL. One of
 * them dies the hard way (SIGKILL) in the middle of 300 runs; the other takes its locked tasks once
 * their locks expire, within {@link #FAIL_OVER} of the kill with the shipped lock duration, and every
 * run ends exactly once with an unbroken trace.
 */
class ClusterFailoverTest {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterFailoverTest.class);
  private static final int RUNS = 300;
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  /** How soon after a node died it stops holding its runs, so that the other node may take them. */
  private static final Duration FAIL_OVER = Duration.ofSeconds(30);

  static SharedDatabase database;
  static AppNode node1;
  static AppNode node2;

  @BeforeAll
  static void startCluster() {
    // the logs of an earlier run of this test must not fail this one
    for (String node : new String[] {"node-1", "node-2"}) {
      try {
        Files.deleteIfExists(Path.of("target", "nodes", node + ".log"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    PostgresServer.Database postgres = PostgresServer.newDatabase("cluster");
    database = new SharedDatabase(postgres.dataSource());
    // one after the other: the first node creates Camunda's schema and the step store's tables
    node1 = TestNodes.onPostgres("node-1", postgres).start();
    node2 = TestNodes.onPostgres("node-2", postgres).start();
    UnattendedAgent.deployThrough(node1.api());
  }

  @AfterAll
  static void stopCluster() {
    for (AppNode node : new AppNode[] {node1, node2}) {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void should_finish_every_run_exactly_once_when_a_node_dies_in_the_middle() throws IOException {
    // given 300 runs, half started through each node, served by both
    List<String> runIds = startThroughBoth(RUNS);
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() ->
        database.runsWithStatus("ANSWERED") >= RUNS / 5 && database.locksHeldBy(node2.name()).size() >= 10);

    // when node 2 dies with tasks locked
    Instant killedAt = Instant.now();
    node2.kill();
    Map<String, Instant> orphaned = database.locksHeldBy(node2.name());
    long answeredAtKill = database.runsWithStatus("ANSWERED");

    // then node 1 finishes every run, node 2's among them, each exactly once
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> database.runsWithStatus("ANSWERED") == RUNS);
    assertThat(TraceCheck.problems(node1.api(), runIds)).isEmpty();
    assertThat(database.instancesEndedAt(ReactAgentProcess.ANSWERED, runIds)).isEqualTo(RUNS);
    assertThat(database.runtimeRows()).allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());

    // and it went on with node 2's runs only after their locks had expired
    assertThat(orphaned).isNotEmpty();
    Map<String, Instant> resumed = database.firstStepAfter(orphaned.keySet(), killedAt);
    assertThat(resumed.keySet()).containsExactlyInAnyOrderElementsOf(orphaned.keySet());
    resumed.forEach((run, firstStep) -> assertThat(firstStep)
        .as("first step of run %s after the kill, against the expiry of node 2's lock", run)
        .isAfter(orphaned.get(run)));

    // and the dead node held them only briefly: its locks were short, not held for minutes (how soon the
    // survivor then wrote their next step depends on how much work of its own it has queued: logged)
    orphaned.forEach((run, lockExpiry) -> assertThat(Duration.between(killedAt, lockExpiry))
        .as("how long after the kill node 2 still held run %s", run).isLessThan(FAIL_OVER));

    // and no node ever worked on a task another node held: none had a result refused for that
    for (AppNode node : new AppNode[] {node1, node2}) {
      assertThat(Files.readAllLines(node.log())).as("log of %s", node.name())
          .noneMatch(line -> line.contains("cannot be completed by worker"));
    }

    Instant takenOver = resumed.values().stream().min(Instant::compareTo).orElseThrow();
    LOG.info("node 2 killed with {} runs locked, {} of {} runs answered; node 1 wrote the first step of those runs"
            + " {} ms after the kill (the shipped lock duration), the last of them answered {} ms after the kill",
        orphaned.size(), answeredAtKill, RUNS, Duration.between(killedAt, takenOver).toMillis(),
        Duration.between(killedAt, database.lastEnded(orphaned.keySet())).toMillis());
  }

  private static List<String> startThroughBoth(int runs) {
    CompletableFuture<List<String>> first = CompletableFuture.supplyAsync(
        () -> node1.api().startAll(UnattendedAgent.KEY, runs / 2, 4, "cluster: through node 1"));
    CompletableFuture<List<String>> second = CompletableFuture.supplyAsync(
        () -> node2.api().startAll(UnattendedAgent.KEY, runs - runs / 2, 4, "cluster: through node 2"));
    List<String> ids = new ArrayList<>(first.join());
    ids.addAll(second.join());
    return ids;
  }
}
