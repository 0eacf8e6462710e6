package dev.agentloop.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issues 2 and 19's figures, measured side by side in one JVM: the agent loop against a bare
 * Camunda loop of the same shape, per iteration of one long run and as throughput of 1,000 runs of
 * ten iterations whose model takes 500 ms a call. Each figure comes with what it cost: statements
 * and commits per iteration ({@link SqlCounter}), CPU per iteration (of this JVM, with H2 in it; an
 * embedded PostgreSQL server runs detached and is not counted) and the machine's load average when it began, since
 * other work on the machine moves the times but not the counts. Prints figures; asserts only that
 * runs finished.
 */
abstract class LoopFigures {

  static final int RUNS = 1000;
  static final int ITERATIONS = 10;
  /** Threads that start the agent loop's runs; the bare loops' start from one, which is faster for them. */
  static final int STARTERS = 8;
  /** The benchmark's own queries, one select and one commit each, that wait for runs to end: not counted as the runs' work. */
  private static final AtomicLong POLLS = new AtomicLong();

  static {
    // before this class's Spring context opens a database of its own
    BenchmarkReport.deleteEarlierDatabases();
  }

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;

  /** The report's title: the database and what else distinguishes this configuration. */
  abstract String title();

  /** Whether to measure long runs too, or only the throughput of many short ones. */
  boolean longRuns() {
    return true;
  }

  /** Whether to measure the throughput of many short runs too, or only long runs. */
  boolean shortRuns() {
    return true;
  }

  /**
   * Figures of a peer measured in the same run, printed after ours, beside {@code ours}, the agent
   * loop's throughput in iterations/s; empty when there is none.
   */
  String peer(double ours) {
    return "";
  }

  @BeforeAll
  void deploy() {
    LoopShapes.deploy(engine);
  }

  /** One fixed sequence, so every figure is measured on a warm JVM and in the same conditions. */
  @Test
  void figures() {
    warmUp();
    StringBuilder report = new StringBuilder();
    if (longRuns()) {
      report.append(loopAgainstBareLoop());
    }
    if (longRuns() && shortRuns()) {
      report.append("\n\n");
    }
    if (shortRuns()) {
      String peer = peer(throughput(report));
      if (!peer.isEmpty()) {
        report.append("\n\n").append(peer);
      }
    }
    BenchmarkReport.print(title() + ", history level " + engine.getProcessEngineConfiguration().getHistory()
        + ", " + Runtime.getRuntime().availableProcessors() + " cores", report.toString());
  }

  /** The short runs warm up right before their measurement ({@link #throughputAfterWarmUp}). */
  private void warmUp() {
    if (longRuns()) {
      for (int i = 0; i < 3; i++) {
        agentLoop(100);
        bareLoop(100);
      }
    }
  }

  private String startAgentRun(int i) {
    return runs.start(LoopShapes.AGENT, "slow10: run " + i);
  }

  private String loopAgainstBareLoop() {
    double[] agent100 = new double[5];
    double[] bare100 = new double[5];
    Measured agentCost = null;
    Measured bareCost = null;
    for (int i = 0; i < 5; i++) {
      Measured agent = measure(100, () -> agentLoop(100));
      Measured bare = measure(100, () -> bareLoop(100));
      agent100[i] = agent.msPerIteration();
      bare100[i] = bare.msPerIteration();
      agentCost = agent;
      bareCost = bare;
    }
    List<Step> thoughts = new ArrayList<>();
    Map<String, Long> statementsBefore = SqlCounter.byText();
    Measured agent1000 = measure(1000, () -> thoughts.addAll(agentLoop(1000)));
    String frequent = SqlCounter.mostFrequent(statementsBefore, SqlCounter.byText(), 1000, 15);
    Measured bare1000 = measure(1000, () -> bareLoop(1000));
    double a100 = median(agent100);
    double b100 = median(bare100);
    double early = msPerIterationAround(thoughts, 50);
    double late = msPerIterationAround(thoughts, 500);
    return String.format(Locale.ROOT,
        "(a, b) one run, zero-latency model, no-op tool   agent loop   bare loop   a/b (target <= 1.3)%n"
            + "      ms/iteration,  100 steps (median of 5)  %8.2f     %8.2f     %5.2f%n"
            + "      ms/iteration, 1000 steps                %8.2f     %8.2f     %5.2f%n"
            + "      CPU ms/iteration, 1000 steps            %8.2f     %8.2f     %5.2f%n"
            + "(c)   agent loop ms/iteration around step 50: %.2f, around step 500: %.2f, ratio %.2f (target <= 1.2)%n"
            + "      per iteration, agent loop: %s%n"
            + "      per iteration, bare loop:  %s%n"
            + "      load average at the start: %.1f%n"
            + "      the agent loop's most frequent statements per iteration, 1000 steps (the benchmark's polls"
            + " included):%n%s",
        a100, b100, a100 / b100, agent1000.msPerIteration(), bare1000.msPerIteration(),
        agent1000.msPerIteration() / bare1000.msPerIteration(), agent1000.cpuMsPerIteration(),
        bare1000.cpuMsPerIteration(), agent1000.cpuMsPerIteration() / bare1000.cpuMsPerIteration(),
        early, late, late / early, agentCost.sql().per(100), bareCost.sql().per(100), agentCost.load(),
        frequent.stripTrailing());
  }

  /**
   * Appends the throughput figures to {@code report}; returns the agent loop's, in iterations/s. The
   * bare loops go first: each round of them in the same database was slower than the one before (284
   * iterations/s on a new database, 243 after 2,000 more runs), so first they show the engine at its
   * best. The agent loop, measured last, warms up for three rounds: on two cores the JIT compiler still
   * took CPU from its second round, and only from the third did its rounds cost the same.
   */
  private double throughput(StringBuilder report) {
    Measured bare = throughputAfterWarmUp(1, 1, i -> LoopShapes.startBare(engine, LoopShapes.BARE, ITERATIONS), () -> { });
    Measured minimal =
        throughputAfterWarmUp(1, 1, i -> LoopShapes.startBare(engine, LoopShapes.MINIMAL, ITERATIONS), () -> { });
    Map<String, Long> statementsBefore = new HashMap<>();
    Measured agent = throughputAfterWarmUp(3, STARTERS, this::startAgentRun,
        () -> statementsBefore.putAll(SqlCounter.byText()));
    String frequent = SqlCounter.mostFrequent(statementsBefore, SqlCounter.byText(), RUNS * ITERATIONS, 25);
    report.append(String.format(Locale.ROOT,
        "(d)   %,d runs x %d iterations                     iterations/s  CPU ms/iteration  load avg%n"
            + "      agent loop, 500 ms model latency (target >= 600)  %6.0f   %10.2f      %6.1f%n"
            + "      bare loop of the same shape, no latency           %6.0f   %10.2f      %6.1f%n"
            + "      minimal bare loop (think, act, one gateway)       %6.0f   %10.2f      %6.1f%n"
            + "      the agent loop's runs started from %d threads, the bare loops' from one%n"
            + "      per iteration, agent loop: %s%n"
            + "      per iteration, bare loop:  %s%n"
            + "      the agent loop's most frequent statements per iteration (the benchmark's polls included):%n%s",
        RUNS, ITERATIONS, agent.iterationsPerSecond(), agent.cpuMsPerIteration(), agent.load(),
        bare.iterationsPerSecond(), bare.cpuMsPerIteration(), bare.load(),
        minimal.iterationsPerSecond(), minimal.cpuMsPerIteration(), minimal.load(), STARTERS,
        agent.sql().per(RUNS * ITERATIONS), bare.sql().per(RUNS * ITERATIONS), frequent.stripTrailing()));
    return agent.iterationsPerSecond();
  }

  /**
   * Measures {@value #RUNS} runs after untimed rounds of the same size, as LangGraph.js' harness warms
   * up ({@code --warmup 1}, one round). A round measured after a smaller warm-up, or right after a round
   * of another loop, cost up to half as much CPU per iteration again as the rounds that followed it.
   */
  private Measured throughputAfterWarmUp(int warmUpRounds, int starters, IntFunction<String> start,
      Runnable beforeMeasuring) {
    for (int i = 0; i < warmUpRounds; i++) {
      throughputOf(RUNS, starters, start);
    }
    beforeMeasuring.run();
    return measure(RUNS * ITERATIONS, () -> throughputOf(RUNS, starters, start));
  }

  /**
   * Starts {@code count} instances from {@code threads} threads, as clients of the REST API would
   * (LangGraph.js' harness starts all its runs at once), and waits until the last one ended.
   */
  private void throughputOf(int count, int threads, IntFunction<String> start) {
    ExecutorService starters = Executors.newFixedThreadPool(threads);
    Set<String> ids;
    try {
      List<Future<String>> started = IntStream.range(0, count)
          .mapToObj(i -> starters.submit(() -> start.apply(i))).toList();
      ids = started.stream().map(LoopFigures::id).collect(Collectors.toSet());
    } finally {
      starters.shutdown();
    }
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(250)).until(() -> POLLS.incrementAndGet() > 0
        && engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceIds(ids)
            .finished().count() == count);
  }

  private static String id(Future<String> started) {
    try {
      return started.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a start failed", e.getCause());
    }
  }

  private List<Step> agentLoop(int steps) {
    String id = runs.start(LoopShapes.AGENT, "loop" + steps + ": benchmark");
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> POLLS.incrementAndGet() > 0 && store.run(id).status() == RunStatus.ANSWERED);
    List<Step> thoughts = store.activePath(id).stream().filter(s -> s.kind() == StepKind.THOUGHT).toList();
    assertThat(thoughts).hasSize(steps);
    return thoughts;
  }

  private void bareLoop(int steps) {
    String id = LoopShapes.startBare(engine, LoopShapes.BARE, steps);
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> POLLS.incrementAndGet() > 0
            && engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(id).count() == 0);
  }

  private static Measured measure(int iterations, Runnable work) {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    SqlCounter.Counts sql = SqlCounter.Counts.now();
    long polls = POLLS.get();
    long cpu = cpuNanos();
    long start = System.nanoTime();
    work.run();
    long wall = System.nanoTime() - start;
    return new Measured(iterations, wall, cpuNanos() - cpu, SqlCounter.Counts.now().since(sql)
        .withoutPolls(POLLS.get() - polls), load);
  }

  /** CPU time of this JVM. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** Mean duration of the 50 iterations centred on {@code turn}, from the thoughts' timestamps. */
  private static double msPerIterationAround(List<Step> thoughts, int turn) {
    Step from = thoughts.get(turn - 26);
    Step to = thoughts.get(turn + 24);
    return Duration.between(from.createdAt(), to.createdAt()).toNanos() / 1e6 / 50;
  }

  /**
   * What one measured piece of work cost. The wall time of the awaited work includes up to one poll
   * interval of the wait for its end, which is small against the runs measured.
   */
  private record Measured(int iterations, long wallNanos, long cpuNanos, SqlCounter.Counts sql, double load) {

    double msPerIteration() {
      return wallNanos / 1e6 / iterations;
    }

    double iterationsPerSecond() {
      return iterations / (wallNanos / 1e9);
    }

    double cpuMsPerIteration() {
      return cpuNanos / 1e6 / iterations;
    }
  }
}
