package dev.agentloop.benchmark;

import static org.awaitility.Awaitility.await;

import dev.agentloop.cluster.AppNode;
import dev.agentloop.cluster.PostgresServer;
import dev.agentloop.cluster.UnattendedAgent;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 6's figures: throughput of the stand-alone app, each node a JVM of its own with the shipped
 * settings, on H2 and on the embedded PostgreSQL with one and two nodes, for runs of ten
 * iterations against a scripted model that takes 200 ms per call. Runs are started over HTTP, spread
 * over the nodes; a batch is timed from before its first start to the end of its last run. Prints
 * figures; asserts only that every run answered.
 *
 * <p>Throughput on a shared machine depends on what else runs on it, so each row also shows the CPU
 * time that the nodes and PostgreSQL (all processes this JVM started) spent per iteration, which
 * other load hardly changes, and the load average when the batch began.
 */
@Tag("benchmark")
class ScaleOutBenchmark {

  private static final int WARM_UP_RUNS = 100;
  private static final int RUNS = 600;
  private static final int ITERATIONS_PER_RUN = 10;
  private static final int CLIENTS = 8;

  @Test
  void figures() {
    List<Figures> rows = List.of(
        measure("H2 file, 1 node", List.of(node("h2-1").workingDirectory(directory()))),
        // what the shipped WRITE_DELAY=0 costs: H2's default acknowledges commits up to 500 ms before they are on disk
        measure("H2 file, 1 node, H2's default WRITE_DELAY", List.of(node("h2-2").workingDirectory(directory())
            .property("spring.datasource.url", "jdbc:h2:file:./data/agentloop;DB_CLOSE_ON_EXIT=FALSE"))),
        measure("PostgreSQL, 1 node", onPostgres(1, 2)),
        measure("PostgreSQL, 2 nodes", onPostgres(2, 2)),
        measure("PostgreSQL, 1 node, 8 worker threads", onPostgres(1, 8)));
    StringBuilder table = new StringBuilder(String.format(
        "%-42s %8s %14s %8s %18s %10s%n", "", "runs/s", "iterations/s", "wall s", "CPU ms/iteration", "load avg"));
    rows.forEach(row -> table.append(row.line()));
    BenchmarkReport.print(String.format("Scale-out (issue 6): %d runs x %d iterations, scripted model 200 ms per call,"
            + " %d CPU cores, shipped settings (worker threads 2 unless said)", RUNS, ITERATIONS_PER_RUN,
        Runtime.getRuntime().availableProcessors()),
        table.toString().stripTrailing());
  }

  private static Figures measure(String name, List<AppNode.Builder> builders) {
    List<AppNode> nodes = new ArrayList<>();
    try {
      // one after the other: the first creates the schemas on an empty database
      builders.forEach(builder -> nodes.add(builder.start()));
      UnattendedAgent.deployThrough(nodes.get(0).api());
      runBatch(nodes, WARM_UP_RUNS);
      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      Duration cpuBefore = cpuOfStartedProcesses();
      Duration wall = runBatch(nodes, RUNS);
      return new Figures(name, wall, cpuOfStartedProcesses().minus(cpuBefore), load);
    } finally {
      nodes.forEach(AppNode::close);
    }
  }

  /** Starts the runs spread over the nodes and returns the time until the last one answered. */
  private static Duration runBatch(List<AppNode> nodes, int runs) {
    Instant begin = Instant.now();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      CompletableFuture.allOf(IntStream.range(0, runs)
          .mapToObj(i -> CompletableFuture.runAsync(
              () -> nodes.get(i % nodes.size()).api().start(UnattendedAgent.KEY, "scale: run " + i), clients))
          .toArray(CompletableFuture[]::new)).join();
    } finally {
      clients.shutdownNow();
    }
    var api = nodes.get(0).api();
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1))
        .until(() -> api.answeredRuns(UnattendedAgent.KEY, begin) == runs);
    return Duration.between(begin, api.lastAnswer(UnattendedAgent.KEY, begin));
  }

  /**
   * CPU time of the node JVMs and the PostgreSQL server and its backends so far. A process that
   * ended takes its time with it; the connection pools keep backends for the whole batch.
   */
  private static Duration cpuOfStartedProcesses() {
    return ProcessHandle.current().descendants()
        .map(process -> process.info().totalCpuDuration().orElse(Duration.ZERO))
        .reduce(Duration.ZERO, Duration::plus);
  }

  private static List<AppNode.Builder> onPostgres(int nodes, int workerThreads) {
    PostgresServer.Database database = PostgresServer.newDatabase("scale");
    return IntStream.rangeClosed(1, nodes)
        .mapToObj(i -> node("pg-" + nodes + "-" + i).postgres(database)
            .property("agentloop.worker.threads", Integer.toString(workerThreads)))
        .toList();
  }

  /** The shipped settings, but the benchmark's script and quiet logs. */
  private static AppNode.Builder node(String name) {
    return AppNode.named(name).peakSpeed()
        .property("agentloop.worker.worker-id", name)
        .property("agentloop.llm.scripted.script", "classpath:scripts/scale-script.json")
        .property("logging.level.dev.agentloop", "WARN")
        .property("spring.main.banner-mode", "off");
  }

  private static Path directory() {
    return Path.of("target", "benchmark", "scale-" + UUID.randomUUID());
  }

  private record Figures(String name, Duration wall, Duration cpu, double loadAverage) {

    String line() {
      double seconds = wall.toMillis() / 1e3;
      int iterations = RUNS * ITERATIONS_PER_RUN;
      return String.format("%-42s %8.1f %14.0f %8.1f %18.1f %10.1f%n", name, RUNS / seconds, iterations / seconds,
          seconds, (double) cpu.toMillis() / iterations, loadAverage);
    }
  }
}
