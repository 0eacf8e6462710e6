package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A node on PostgreSQL is stopped as an operator stops it (SIGTERM) while its worker waits on model
 * calls for many runs. It stops fetching, lets what is in flight finish for its grace period,
 * unlocks the rest, and only then closes the database: its log holds no ERROR and no stack trace,
 * no task stays locked for it, and started again, it answers every run.
 */
class GracefulShutdownTest {

  private static final int RUNS = 30;
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  static AppNode node;

  @AfterAll
  static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void should_finish_or_unlock_its_tasks_and_log_no_error_when_stopped_with_calls_in_flight() throws IOException {
    // given runs waiting on their model (1 s a call), and a grace period shorter than that: some tasks
    // finish within it, the others are unlocked
    PostgresServer.Database postgres = PostgresServer.newDatabase("shutdown");
    SharedDatabase database = new SharedDatabase(postgres.dataSource());
    node = TestNodes.onPostgres("shutdown-node", postgres)
        .property("agentloop.worker.shutdown-grace", "PT0.5S")
        .start();
    UnattendedAgent.deployThrough(node.api());
    List<String> runs = node.api().startAll(UnattendedAgent.KEY, RUNS, 8, "restart: stopped midway");
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
        .until(() -> database.locksHeldBy(node.name()).size() >= 10);
    long logBefore = Files.size(node.log());

    // when
    node.stop();

    // then no task stays locked for the stopped node: each was completed, or unlocked for the others at once
    Instant stopped = Instant.now();
    Map<String, Instant> stillLocked = database.locksHeldBy(node.name());
    assertThat(stillLocked).as("runs whose tasks the stopped node still holds, with the lock's expiry")
        .allSatisfy((run, expiry) -> assertThat(expiry).isBefore(stopped));

    // and its log says so without an ERROR or a stack trace
    List<String> shutdownLog = linesFrom(logBefore);
    assertThat(shutdownLog).as("the log of the stop, up to the data source's close")
        .anyMatch(line -> line.contains("Shutdown completed"));
    assertThat(shutdownLog).as("the log of the stop")
        .noneMatch(line -> line.contains(" ERROR ") || line.startsWith("\tat ") || line.startsWith("Caused by"));

    // and started again, the node answers every run: nothing was lost
    node.restart();
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> runs.stream().allMatch(id -> node.api().run(id).get("status").asText().equals("ANSWERED")));
    assertThat(TraceCheck.problems(node.api(), runs)).isEmpty();
  }

  private static List<String> linesFrom(long offset) throws IOException {
    try (RandomAccessFile log = new RandomAccessFile(node.log().toFile(), "r")) {
      byte[] bytes = new byte[(int) (log.length() - offset)];
      log.seek(offset);
      log.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8).lines().toList();
    }
  }
}
