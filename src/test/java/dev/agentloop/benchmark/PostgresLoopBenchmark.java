package dev.agentloop.benchmark;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestTools;
import dev.agentloop.cluster.PostgresServer;
import java.net.URI;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link LoopFigures}' throughput on PostgreSQL 17 (embedded, with io.zonky's defaults: fsync on,
 * {@code synchronous_commit} off) with one node and the postgres profile's settings, and beside it, on the
 * same server, LangGraph.js with its PostgresSaver doing the same loop ({@link LangGraphPeer}).
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(classes = AgentLoopApplication.class, properties = {
    "camunda.bpm.process-engine-name=pgloopbenchmark",
    "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
    "logging.level.dev.agentloop=WARN"})
@ActiveProfiles({"test", "postgres"})
@Import({TestTools.class, SqlCounter.class})
class PostgresLoopBenchmark extends LoopFigures {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    PostgresServer.Database database = PostgresServer.newDatabase("loopbench");
    registry.add("spring.datasource.url", database::jdbcUrl);
    registry.add("spring.datasource.username", database::user);
    registry.add("spring.datasource.password", database::password);
  }

  @Override
  String title() {
    return "Agent loop: PostgreSQL 17, one node";
  }

  @Override
  boolean longRuns() {
    return false;
  }

  /** LangGraph.js on a database of its own on the same server, at the same latency; at 500 ms AgentLoop's target is 3 times it. */
  @Override
  String peer(int runs, int latencyMs, double ours) {
    PostgresServer.Database peer = PostgresServer.newDatabase("langgraph" + runs + "x" + latencyMs);
    URI jdbc = URI.create(peer.jdbcUrl().substring("jdbc:".length()));
    return LangGraphPeer.concurrent(runs, ITERATIONS, latencyMs,
        "postgresql://" + peer.user() + "@localhost:" + jdbc.getPort() + "/" + peer.name(), ours,
        latencyMs == 500 && runs == RUNS ? 3.0 : 0);
  }
}
