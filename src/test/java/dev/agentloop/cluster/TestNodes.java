package dev.agentloop.cluster;

import java.nio.file.Path;

/**
 * Nodes as the cluster, fail-over and restart tests run them: the test script (200 ms per model
 * call), the shipped lock duration (short, and extended while a node works on a task), and at most
 * 100 tasks in flight per node so that one node cannot take all the work before the other fetches.
 */
public final class TestNodes {

  private TestNodes() {}

  /** A node of the postgres profile, connected through the profile's environment variables. */
  public static AppNode.Builder onPostgres(String name, PostgresServer.Database database) {
    return common(name).postgres(database);
  }

  /** A node with the shipped H2 file database, {@code ./data/agentloop} below {@code directory}. */
  public static AppNode.Builder onH2File(String name, Path directory) {
    return common(name).workingDirectory(directory);
  }

  private static AppNode.Builder common(String name) {
    return AppNode.named(name)
        .property("agentloop.worker.worker-id", name)
        .property("agentloop.llm.scripted.script", "classpath:scripts/cluster-script.json")
        .property("agentloop.worker.idle-wait", "PT0.5S")
        .property("agentloop.worker.max-concurrency", "100")
        .property("spring.main.banner-mode", "off");
  }
}
