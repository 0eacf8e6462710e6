package dev.agentloop.internal.resilience;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** What the chaos runs did, in figures: their outcomes and the flaky tool's meters, printed and kept in a file. */
final class ChaosReport {

  /** Whether this JVM wrote the file already: the first mode to report starts it afresh, the others add to it. */
  private static boolean started;

  private ChaosReport() {}

  static Map<String, Double> flakyMeters(ResilienceMetrics metrics) {
    Map<String, Double> values = new TreeMap<>();
    metrics.registry().find("agentloop.tool.failures").tag("tool", "flaky").counters()
        .forEach(c -> values.put("failed attempts, " + c.getId().getTag("class"), c.count()));
    metrics.registry().find("agentloop.tool.calls").tag("tool", "flaky").timers()
        .forEach(t -> values.put("calls, " + t.getId().getTag("outcome"), (double) t.count()));
    metrics.registry().find("agentloop.breaker.transitions").tag("name", "tool:flaky").counters()
        .forEach(c -> values.put("breaker entered " + c.getId().getTag("state"), c.count()));
    metrics.registry().find("agentloop.loop.detections").counters()
        .forEach(c -> values.merge("loop detections, " + c.getId().getTag("level"), c.count(), Double::sum));
    return values;
  }

  static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> delta = new TreeMap<>();
    after.forEach((name, value) -> delta.put(name, value - before.getOrDefault(name, 0.0)));
    return delta;
  }

  /**
   * Prints the outcomes and meters of a mode and adds them to {@code target/chaos-report.txt}.
   *
   * @param title e.g. "500 runs against the flaky tool"
   */
  static void report(String title, Map<String, Integer> outcomes, Map<String, Double> meters, Duration took)
      throws IOException {
    StringBuilder text = new StringBuilder("\n== Chaos: " + title + " (30 % transient, 10 % persistent, 2 % hang)"
        + " ==\n");
    double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    outcomes.forEach((outcome, count) -> text.append(String.format("%-28s %5d%n", outcome, count)));
    meters.forEach((name, value) -> text.append(String.format("%-28s %5.0f%n", name, value)));
    text.append(String.format("%-28s %5.1f s (load average %.1f on %d cores)%n", "took", took.toMillis() / 1000.0,
        load, Runtime.getRuntime().availableProcessors()));
    System.out.println(text);
    Path file = Path.of("target", "chaos-report.txt");
    Files.createDirectories(file.getParent());
    synchronized (ChaosReport.class) {
      Files.writeString(file, text.toString(), StandardOpenOption.CREATE,
          started ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
      started = true;
    }
  }
}
