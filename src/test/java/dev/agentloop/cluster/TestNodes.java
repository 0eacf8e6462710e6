package dev.agentloop.cluster;

import java.nio.file.Path;

/**
 * Nodes as the cluster, fail-over and restart tests run them: the test script (200 ms per model
 * call), a lock of 10 s so that a dead node's tasks return quickly, and at most 100 tasks in flight
 * per node so that one node cannot take all the work before the other fetches.
 */
public final class TestNodes {

  /** Lock duration of the test nodes: how long a dead node's tasks wait before another node takes them. */
  public static final String LOCK_DURATION = "PT10S";

  private TestNodes() {}

  /** A node of the postgres profile, connected through the profile's environment variables. */
  public static AppNode.Builder onPostgres(String name, PostgresServer.Database database) {
    return common(name)
        .property("spring.profiles.active", "postgres")
        .environment("AGENTLOOP_DB_URL", database.jdbcUrl())
        .environment("AGENTLOOP_DB_USER", database.user())
        .environment("AGENTLOOP_DB_PASSWORD", database.password());
  }

  /** A node with the shipped H2 file database, {@code ./data/agentloop} below {@code directory}. */
  public static AppNode.Builder onH2File(String name, Path directory) {
    return common(name).workingDirectory(directory);
  }

  private static AppNode.Builder common(String name) {
    return AppNode.named(name)
        .property("agentloop.worker.worker-id", name)
        .property("agentloop.llm.scripted.script", "classpath:scripts/cluster-script.json")
        .property("agentloop.worker.lock-duration", LOCK_DURATION)
        .property("agentloop.worker.idle-wait", "PT0.5S")
        .property("agentloop.worker.max-concurrency", "100")
        .property("spring.main.banner-mode", "off");
  }
}
