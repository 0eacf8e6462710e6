package dev.agentloop.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The LangGraph.js peer of the throughput figure, run where the machine has it: the harness of
 * {@code ../shared/peer-langgraphjs} (or {@code -Dagentloop.benchmark.peer=<folder>}), Node and npm.
 * It is copied into {@code target/} and installed there with {@code npm ci}, so the shared folder and
 * this repository stay as they are. Where anything is missing, the figure is skipped with the reason:
 * it is never a condition of the build.
 */
final class LangGraphPeer {

  private static final Path COPY = Path.of("target", "peer-langgraphjs");

  private LangGraphPeer() {}

  /**
   * Runs {@code node bench.mjs concurrent} with {@code runs} threads of {@code iterations} tool calls
   * and a final answer, the model awaiting {@code latencyMs} per call, on LangGraph's PostgresSaver at
   * {@code pgUrl}; returns the figure and {@code ours}, AgentLoop's, as a multiple of it (against {@code target}
   * where it is above 0), or why there is none.
   */
  static String concurrent(int runs, int iterations, int latencyMs, String pgUrl, double ours, double target) {
    Path harness = Path.of(System.getProperty("agentloop.benchmark.peer", "../shared/peer-langgraphjs"));
    if (!Files.isRegularFile(harness.resolve("bench.mjs"))) {
      return "LangGraph.js peer: skipped, no harness at " + harness.toAbsolutePath().normalize()
          + " (set -Dagentloop.benchmark.peer=<folder of peer-langgraphjs>)";
    }
    try {
      String node = run(List.of("node", "--version"), Path.of("."), 30).strip();
      install(harness);
      String line = run(List.of("node", "bench.mjs", "concurrent", "--threads", Integer.toString(runs), "--steps",
          Integer.toString(iterations + 1), "--latency-ms", Integer.toString(latencyMs), "--saver", "postgres",
          "--pg-url", pgUrl), COPY, 1800);
      JsonNode figures = new ObjectMapper().readTree(line.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
          .orElseThrow(() -> new IOException("no JSON line in its output: " + line)));
      double seconds = figures.path("total_ms").asDouble() / 1e3;
      double peer = runs * iterations / seconds;
      return String.format(Locale.ROOT,
          "LangGraph.js peer (node %s, PostgresSaver on the same PostgreSQL, %d threads x %d steps, %d ms latency):%n"
              + "      %6.0f iterations/s counted like ours (%d per run), %.0f as it reports them (model calls);"
              + " CPU ms/iteration (Node only) %.2f%n"
              + "      its runs' answers: first after %.1f s, median %.1f s, last %.1f s%n"
              + "      AgentLoop's %.0f iterations/s are %.2f times LangGraph.js' counted like ours%s",
          node, runs, iterations + 1, latencyMs, peer, iterations, figures.path("iterations_per_s").asDouble(),
          figures.path("cpu_ms").asDouble() / (runs * iterations),
          figures.at("/thread_latency_ms/min").asDouble() / 1e3, figures.at("/thread_latency_ms/p50").asDouble() / 1e3,
          figures.at("/thread_latency_ms/max").asDouble() / 1e3, ours, ours / peer, target <= 0 ? ""
              : String.format(Locale.ROOT, " (target >= %.1f: %s)", target,
                  BenchmarkReport.verdict(ours / peer >= target)));
    } catch (IOException | RuntimeException e) {
      return "LangGraph.js peer: skipped, " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "LangGraph.js peer: skipped, interrupted";
    }
  }

  /** A copy of the harness's sources in target/, with its pinned dependencies installed. */
  private static void install(Path harness) throws IOException, InterruptedException {
    Files.createDirectories(COPY);
    for (String file : List.of("package.json", "package-lock.json", "bench.mjs")) {
      Files.copy(harness.resolve(file), COPY.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    if (!Files.isDirectory(COPY.resolve("node_modules"))) {
      run(List.of("npm", "ci", "--no-audit", "--no-fund"), COPY, 600);
    }
  }

  private static String run(List<String> command, Path directory, long timeoutSeconds)
      throws IOException, InterruptedException {
    Path output = Files.createTempFile("peer", ".out");
    try {
      Process process = new ProcessBuilder(new ArrayList<>(command)).directory(directory.toFile())
          .redirectErrorStream(true).redirectOutput(output.toFile()).start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " took longer than " + timeoutSeconds + " s");
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IOException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
            + text.strip().lines().reduce((a, b) -> b).orElse(""));
      }
      return text;
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
