package dev.agentloop.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Prints a benchmark's figures and appends them to target/benchmark-report.txt. */
final class BenchmarkReport {

  private static final Path FILE = Path.of("target", "benchmark-report.txt");

  private BenchmarkReport() {}

  /** The value below which {@code percent} % of the sorted values lie. */
  static double percentile(List<Double> sorted, int percent) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1));
  }

  static void print(String title, String body) {
    String text = "\n== " + title + " ==\n" + body + "\n";
    System.out.println(text);
    try {
      Files.createDirectories(FILE.getParent());
      Files.writeString(FILE, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
