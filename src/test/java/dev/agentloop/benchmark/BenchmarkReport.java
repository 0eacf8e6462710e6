package dev.agentloop.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Prints a benchmark's figures and appends them to target/benchmark-report.txt. */
final class BenchmarkReport {

  private static final Path FILE = Path.of("target", "benchmark-report.txt");
  /** Where the benchmarks keep their databases, each run new ones. */
  private static final Path DATABASES = Path.of("target", "benchmark");

  /**
   * Deletes the databases that earlier runs of the benchmarks left: with {@code WRITE_DELAY=0} H2
   * writes every commit as a chunk of its own and reuses their space only later, so one run of the
   * loop benchmark, a thousand commits a second, leaves gigabytes, and a few runs filled the disk.
   */
  static void deleteEarlierDatabases() {
    long thisRunStarted = ManagementFactory.getRuntimeMXBean().getStartTime();
    if (!Files.isDirectory(DATABASES)) {
      return;
    }
    try (Stream<Path> files = Files.walk(DATABASES)) {
      // chosen before deleting, which makes a folder look new; deleted contents first
      files.filter(file -> !file.equals(DATABASES) && modifiedBefore(file, thisRunStarted))
          .sorted(Comparator.reverseOrder()).toList()
          .forEach(file -> file.toFile().delete());
    } catch (IOException e) {
      throw new IllegalStateException("earlier benchmark databases could not be deleted", e);
    }
  }

  private static boolean modifiedBefore(Path file, long millis) {
    try {
      return Files.getLastModifiedTime(file).toMillis() < millis;
    } catch (IOException e) {
      return false;
    }
  }

  private BenchmarkReport() {}

  /** The value below which {@code percent} % of the sorted values lie. */
  static double percentile(List<Double> sorted, int percent) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1));
  }

  /** How a figure stands against its target, as the reports print it. */
  static String verdict(boolean met) {
    return met ? "met" : "NOT MET";
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
