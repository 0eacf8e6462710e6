package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One open run per conversation id across a cluster: two nodes (JVMs of their own) on one real PostgreSQL are asked
 * to start a run under the same id at the same moment, a few dozen times. The moment is arranged, not hoped for: the
 * test holds a lock on the claims' table, so each node passes its checks, starts its process instance and then
 * waits to write its claim; only once PostgreSQL shows both waiting is the lock let go. Exactly one start must win
 * each time, the other be refused with 409 naming the winner, and nothing of the loser be left (no instance, no
 * history, no run record, no step, no claim). The same race is run again once the winners have ended, when both
 * nodes want to take the id over from the ended run; and after that a node starts a run under an id that the other
 * node's run held until it ended.
 */
class ConversationRaceTest {

  private static final int ROUNDS = 24;
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  static AppNode node1;
  static AppNode node2;
  static JdbcTemplate database;
  static String databaseName;
  static PostgresServer.Database postgres;
  static final ExecutorService CLIENTS = Executors.newFixedThreadPool(2);

  @BeforeAll
  static void startNodes() throws IOException {
    for (String node : new String[] {"race-node-1", "race-node-2"}) {
      Files.deleteIfExists(Path.of("target", "nodes", node + ".log"));
    }
    postgres = PostgresServer.newDatabase("conversation_race");
    database = new JdbcTemplate(postgres.dataSource());
    node1 = TestNodes.onPostgres("race-node-1", postgres).start();
    UnattendedAgent.deployThrough(node1.api());
    node2 = TestNodes.onPostgres("race-node-2", postgres).start();
  }

  @AfterAll
  static void stopNodes() {
    CLIENTS.shutdownNow();
    for (AppNode node : new AppNode[] {node1, node2}) {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void should_start_exactly_one_run_when_two_nodes_start_one_conversation_id_at_the_same_moment() throws IOException {
    // when both nodes start under each new id at the same moment
    List<String> ids = new ArrayList<>();
    Map<String, String> firstWinners = new HashMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      String id = "race-" + round;
      ids.add(id);
      firstWinners.put(id, winnerOf(id, race(id, "cluster: first race for " + id)));
    }

    // then one run per id exists, it holds the id, and nothing of the losers is left
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_run", Long.class)).isEqualTo(ROUNDS);
    assertThat(database.queryForObject("SELECT count(*) FROM act_hi_procinst", Long.class)).isEqualTo(ROUNDS);
    assertNothingHalfWritten(ROUNDS);
    ids.forEach(id -> assertThat(holder(id)).isEqualTo(firstWinners.get(id)));

    // when every winner has ended and both nodes take each id over at the same moment
    awaitAllEnded();
    Map<String, String> secondWinners = new HashMap<>();
    Map<String, AppNode> winningNodes = new HashMap<>();
    for (String id : ids) {
      List<HttpResponse<String>> answers = race(id, "cluster: second race for " + id);
      secondWinners.put(id, winnerOf(id, answers));
      winningNodes.put(id, answers.get(0).statusCode() == 201 ? node1 : node2);
    }

    // then again exactly one run per id took it over from the ended run, and the losers left nothing
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_run", Long.class)).isEqualTo(2L * ROUNDS);
    assertNothingHalfWritten(2 * ROUNDS);
    ids.forEach(id -> {
      assertThat(secondWinners.get(id)).isNotEqualTo(firstWinners.get(id));
      assertThat(holder(id)).isEqualTo(secondWinners.get(id));
      assertThat(database.queryForObject("SELECT count(*) FROM act_hi_procinst WHERE business_key_ = ?", Long.class,
          id)).isEqualTo(2);
    });

    // when the holder of an id has ended, the node that did not start it starts the next run under the id
    awaitAllEnded();
    String id = ids.get(0);
    AppNode other = winningNodes.get(id) == node1 ? node2 : node1;
    HttpResponse<String> next = other.api().startUnder(UnattendedAgent.KEY, "cluster: after the holder ended", id);

    // then it starts, and holds the id
    assertThat(next.statusCode()).as(next.body()).isEqualTo(201);
    assertThat(holder(id)).isEqualTo(read(next).get("id").asText());
    // and a start refused on purpose is no error in either node's log
    for (AppNode node : new AppNode[] {node1, node2}) {
      assertThat(Files.readAllLines(node.log())).as(node.name()).noneMatch(line -> line.contains(" ERROR "));
    }
  }

  /**
   * Both nodes start a run under the id while the test holds the claims' table, each through its own HTTP client;
   * the table is let go once both starts wait to write their claims.
   *
   * @return what node 1 and node 2 answered, in that order
   */
  private static List<HttpResponse<String>> race(String id, String question) {
    try (Connection barrier = postgres.dataSource().getConnection(); Statement sql = barrier.createStatement()) {
      barrier.setAutoCommit(false);
      // plain reads go on (each node's check reads the claim); inserts and updates wait
      sql.execute("LOCK TABLE agentloop_conversation IN EXCLUSIVE MODE");
      CompletableFuture<HttpResponse<String>> one = CompletableFuture.supplyAsync(
          () -> node1.api().startUnder(UnattendedAgent.KEY, question, id), CLIENTS);
      CompletableFuture<HttpResponse<String>> two = CompletableFuture.supplyAsync(
          () -> node2.api().startUnder(UnattendedAgent.KEY, question, id), CLIENTS);
      await().atMost(PATIENCE).until(() -> waitingClaims() == 2 || one.isDone() || two.isDone());
      assertThat(waitingClaims()).as("starts waiting to claim %s (an answer before: %s)", id,
          one.isDone() ? one.join().body() : two.isDone() ? two.join().body() : "none").isEqualTo(2);
      barrier.commit();
      return List.of(one.join(), two.join());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The run that won a race: exactly one start answered 201, the other 409 naming that run. */
  private static String winnerOf(String id, List<HttpResponse<String>> answers) {
    assertThat(answers).extracting(HttpResponse::statusCode).as("answers for %s", id).containsExactlyInAnyOrder(201, 409);
    HttpResponse<String> won = answers.stream().filter(answer -> answer.statusCode() == 201).findFirst().orElseThrow();
    HttpResponse<String> lost = answers.stream().filter(answer -> answer.statusCode() == 409).findFirst().orElseThrow();
    String winner = read(won).get("id").asText();
    assertThat(read(lost).get("detail").asText())
        .isEqualTo("conversation id '" + id + "' is held by run " + winner + ", which is still open: send its next"
            + " question to that run (POST .../runs/{id}/messages) or close it first; a conversation id names one"
            + " open run at a time");
    return winner;
  }

  /**
   * Every run is whole and every row belongs to one: each run record has its process instance in history, each
   * step and each claim its run record, and each id one claim.
   */
  private static void assertNothingHalfWritten(int runs) {
    assertThat(database.queryForObject("SELECT count(*) FROM act_hi_procinst h WHERE NOT EXISTS"
        + " (SELECT 1 FROM agentloop_run r WHERE r.run_id = h.id_)", Long.class)).as("instances without a run").isZero();
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_run r WHERE NOT EXISTS"
        + " (SELECT 1 FROM act_hi_procinst h WHERE h.id_ = r.run_id)", Long.class)).as("runs without history").isZero();
    assertThat(database.queryForObject("SELECT count(*) FROM act_hi_procinst", Long.class)).isEqualTo(runs);
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_step s WHERE NOT EXISTS"
        + " (SELECT 1 FROM agentloop_run r WHERE r.run_id = s.run_id)", Long.class)).as("orphan steps").isZero();
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_conversation c WHERE NOT EXISTS"
        + " (SELECT 1 FROM agentloop_run r WHERE r.run_id = c.run_id)", Long.class)).as("claims of no run").isZero();
    assertThat(database.queryForObject("SELECT count(*) FROM agentloop_conversation", Long.class)).isEqualTo(ROUNDS);
  }

  /** Starts that wait for the claims' table: each has passed its checks and started its instance. */
  private static long waitingClaims() {
    return database.queryForObject("SELECT count(*) FROM pg_locks WHERE NOT granted"
        + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        + " AND relation = 'agentloop_conversation'::regclass", Long.class);
  }

  private static void awaitAllEnded() {
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> database.queryForObject(
        "SELECT count(*) FROM agentloop_run WHERE ended_at IS NULL", Long.class) == 0);
  }

  private static String holder(String id) {
    return database.queryForObject("SELECT run_id FROM agentloop_conversation WHERE conversation_id = ?", String.class,
        id);
  }

  private static JsonNode read(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
