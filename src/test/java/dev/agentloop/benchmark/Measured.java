package dev.agentloop.benchmark;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one measured piece of work cost: wall time, CPU time of this JVM (with H2 in it; an embedded PostgreSQL
 * server runs detached and is not counted), statements and commits ({@link SqlCounter}) without the benchmark's
 * own polls, and the machine's load average when it began, since other work on the machine moves the times but
 * not the counts. The wall time of awaited work includes up to one poll interval of the wait for its end, which is
 * small against the runs measured.
 */
record Measured(int iterations, long wallNanos, long cpuNanos, SqlCounter.Counts sql, double load) {

  /** The benchmark's own queries, one select and one commit each, that wait for runs to end: not the runs' work. */
  static final AtomicLong POLLS = new AtomicLong();

  static Measured of(int iterations, Runnable work) {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    SqlCounter.Counts sql = SqlCounter.Counts.now();
    long polls = POLLS.get();
    long cpu = processCpuNanos();
    long start = System.nanoTime();
    work.run();
    long wall = System.nanoTime() - start;
    return new Measured(iterations, wall, processCpuNanos() - cpu, SqlCounter.Counts.now().since(sql)
        .withoutPolls(POLLS.get() - polls), load);
  }

  /** Counts one of the benchmark's polls; true, for use inside a condition. */
  static boolean poll() {
    return POLLS.incrementAndGet() > 0;
  }

  double msPerIteration() {
    return wallNanos / 1e6 / iterations;
  }

  double iterationsPerSecond() {
    return iterations / (wallNanos / 1e9);
  }

  double seconds() {
    return wallNanos / 1e9;
  }

  double cpuMsPerIteration() {
    return cpuNanos / 1e6 / iterations;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
