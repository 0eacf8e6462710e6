package dev.agentloop.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.scripted.ScriptedChatModel;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.spi.ChatModel;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The loop's figures, measured side by side in one JVM with the shipped settings: the agent loop against a bare
 * Camunda loop of the same shape, per iteration of one long run; and the throughput of 1,000 runs of ten
 * iterations started at once, with a model that takes 500 ms a call and with one that takes 5 s, holding no
 * thread: iterations per second, when the first and the median answer came, and the calls the model received
 * against the calls the runs counted. Each figure comes with what it cost ({@link Measured}) and, where it has one,
 * its target and whether it was met. Prints figures; asserts only that runs finished.
 */
abstract class LoopFigures {

  /** 1,000; {@code -Dagentloop.benchmark.runs} sets fewer where a machine shared with other builds needs hours. */
  static final int RUNS = Integer.getInteger("agentloop.benchmark.runs", 1000);
  /** A short queue: runs enough to wait for nothing but the model; each should answer in about one run's time. */
  static final int SHORT_RUNS = Math.min(50, RUNS);
  static final int ITERATIONS = 10;
  /** Model calls of a run of {@link #ITERATIONS}: a turn per tool call and the answer (the plan is instant). */
  static final int SLOW_CALLS = ITERATIONS + 1;
  /** Threads that start the agent loop's runs; the bare loops' start from one, which is faster for them. */
  static final int STARTERS = 8;

  static {
    // before this class's Spring context opens a database of its own
    BenchmarkReport.deleteEarlierDatabases();
  }

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ChatModel model;

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

  /** The throughput the agent loop should reach at 500 ms on this database, in iterations/s; 0: none. */
  double throughputTarget() {
    return 0;
  }

  /**
   * Figures of a peer measured in the same run with {@code runs} runs, printed after ours, beside {@code ours}, the
   * agent loop's throughput in iterations/s at {@code latencyMs}; empty when there is none.
   */
  String peer(int runs, int latencyMs, double ours) {
    return "";
  }

  @BeforeAll
  void deploy() {
    LoopShapes.deploy(engine);
  }

  /** One fixed sequence, so every figure is measured on a warm JVM and in the same conditions. */
  @Test
  void figures() {
    StringBuilder report = new StringBuilder();
    if (longRuns()) {
      warmUp();
      report.append(LongRunFigures.loopAgainstBareLoop(this::agentLoop, this::bareLoop)).append("\n\n");
    }
    if (shortRuns()) {
      double fast = throughput(report);
      appendPeer(report, RUNS, 500, fast);
      report.append("\n");
      double few = shortQueue(report);
      appendPeer(report, SHORT_RUNS, 500, few);
      report.append("\n");
      double slow = throughputAtFiveSeconds(report);
      appendPeer(report, RUNS, 5000, slow);
    }
    BenchmarkReport.print(title() + ", history level " + engine.getProcessEngineConfiguration().getHistory()
        + ", " + Runtime.getRuntime().availableProcessors() + " cores", report.toString());
  }

  private void appendPeer(StringBuilder report, int runs, int latencyMs, double ours) {
    String peer = peer(runs, latencyMs, ours);
    if (!peer.isEmpty()) {
      report.append("\n").append(peer).append("\n");
    }
  }

  private void warmUp() {
    for (int i = 0; i < 3; i++) {
      agentLoop(100);
      bareLoop(100);
    }
  }

  /**
   * Appends the figures at 500 ms; returns the agent loop's throughput, in iterations/s. The bare loops go first:
   * each round of them in the same database was slower than the one before (284 iterations/s on a new database,
   * 243 after 2,000 more runs), so first they show the engine at its best. The agent loop, measured last, warms up
   * for three rounds: on two cores the JIT compiler still took CPU from its second round, and only from the third
   * did its rounds cost the same.
   */
  private double throughput(StringBuilder report) {
    Measured bare = bareRound(LoopShapes.BARE);
    Measured minimal = bareRound(LoopShapes.MINIMAL);
    for (int i = 0; i < 3; i++) {
      agentRound("slow10");
    }
    Map<String, Long> statementsBefore = new HashMap<>(SqlCounter.byText());
    AgentRounds.Round[] round = new AgentRounds.Round[1];
    Measured agent = Measured.of(RUNS * ITERATIONS, () -> round[0] = agentRound("slow10"));
    String frequent = SqlCounter.mostFrequent(statementsBefore, SqlCounter.byText(), RUNS * ITERATIONS, 25);
    double target = throughputTarget();
    report.append(String.format(Locale.ROOT,
        "(d)   %,d runs x %d iterations                     iterations/s  CPU ms/iteration  load avg%n"
            + "      agent loop, 500 ms model latency%s  %6.0f   %10.2f      %6.1f%n"
            + "      bare loop of the same shape, no latency           %6.0f   %10.2f      %6.1f%n"
            + "      minimal bare loop (think, act, one gateway)       %6.0f   %10.2f      %6.1f%n"
            + "      the agent loop's runs started from %d threads, the bare loops' from one%n"
            + "      agent loop: %s; one run alone needs %.1f s%n"
            + "      agent loop: %s%n"
            + "      per iteration, agent loop: %s%n"
            + "      per iteration, bare loop:  %s%n"
            + "      the agent loop's most frequent statements per iteration (the benchmark's polls included):%n%s",
        RUNS, ITERATIONS, target > 0 ? String.format(Locale.ROOT, " (target >= %.0f: %s)", target,
            BenchmarkReport.verdict(agent.iterationsPerSecond() >= target)) : "                 ",
        agent.iterationsPerSecond(), agent.cpuMsPerIteration(), agent.load(),
        bare.iterationsPerSecond(), bare.cpuMsPerIteration(), bare.load(),
        minimal.iterationsPerSecond(), minimal.cpuMsPerIteration(), minimal.load(), STARTERS,
        AgentRounds.answers(round[0], store).describe(), SLOW_CALLS * 0.5,
        AgentRounds.calls(round[0], store, calls()).describe(),
        agent.sql().per(RUNS * ITERATIONS), bare.sql().per(RUNS * ITERATIONS), frequent.stripTrailing()));
    return agent.iterationsPerSecond();
  }

  /**
   * One round at 5 s a call, right after the rounds at 500 ms (no warm-up of its own: it is the model that is slow,
   * not the JVM). The latency alone allows no less than {@link #SLOW_CALLS} calls of 5 s; the target is to be
   * within 10 % of that.
   */
  private double throughputAtFiveSeconds(StringBuilder report) {
    AgentRounds.Round[] round = new AgentRounds.Round[1];
    Measured agent = Measured.of(RUNS * ITERATIONS, () -> round[0] = agentRound("slow10x5s"));
    double floor = SLOW_CALLS * 5.0;
    report.append(String.format(Locale.ROOT,
        "(e)   %,d runs x %d iterations, 5 s model latency: %.0f iterations/s, the round took %.1f s; the latency"
            + " allows no less than %.0f s (%d calls of 5 s a run): %.2f times that (target <= 1.10: %s)%n"
            + "      CPU ms/iteration %.2f, load avg %.1f; %s; one run alone needs %.0f s%n"
            + "      %s%n",
        RUNS, ITERATIONS, agent.iterationsPerSecond(), agent.seconds(), floor, SLOW_CALLS, agent.seconds() / floor,
        BenchmarkReport.verdict(agent.seconds() <= floor * 1.1), agent.cpuMsPerIteration(), agent.load(),
        AgentRounds.answers(round[0], store).describe(), floor, AgentRounds.calls(round[0], store, calls()).describe()));
    return agent.iterationsPerSecond();
  }

  /**
   * A short queue at 500 ms, right after the long ones (the JVM is warm): {@link #SHORT_RUNS} runs, which the
   * endpoint takes all at once, so each should answer in about the time one run alone needs, the last one too.
   */
  private double shortQueue(StringBuilder report) {
    AgentRounds.Round[] round = new AgentRounds.Round[1];
    Measured agent = Measured.of(SHORT_RUNS * ITERATIONS, () -> round[0] = agentRound("slow10", SHORT_RUNS));
    double alone = SLOW_CALLS * 0.5;
    AgentRounds.Answers answers = AgentRounds.answers(round[0], store);
    report.append(String.format(Locale.ROOT,
        "(f)   a short queue: %d runs x %d iterations, 500 ms model latency: %.0f iterations/s, CPU ms/iteration %.2f%n"
            + "      %s; one run alone needs %.1f s: the last answer after %.2f times that (target <= 1.20: %s)%n"
            + "      %s%n",
        SHORT_RUNS, ITERATIONS, agent.iterationsPerSecond(), agent.cpuMsPerIteration(), answers.describe(), alone,
        answers.last().toMillis() / 1e3 / alone, BenchmarkReport.verdict(answers.last().toMillis() / 1e3 <= alone * 1.2),
        AgentRounds.calls(round[0], store, calls()).describe()));
    return agent.iterationsPerSecond();
  }

  private AgentRounds.Round agentRound(String scenario) {
    return agentRound(scenario, RUNS);
  }

  private AgentRounds.Round agentRound(String scenario, int count) {
    IntFunction<String> start = i -> runs.start(LoopShapes.AGENT, scenario + ": run " + i);
    return AgentRounds.run(count, STARTERS, start, this::calls, this::allEnded);
  }

  /** A warm-up round, then a measured one, of the bare loop; started from one thread, which is faster for them. */
  private Measured bareRound(String key) {
    IntFunction<String> start = i -> LoopShapes.startBare(engine, key, ITERATIONS);
    AgentRounds.run(RUNS, 1, start, this::calls, this::allEnded);
    return Measured.of(RUNS * ITERATIONS, () -> AgentRounds.run(RUNS, 1, start, this::calls, this::allEnded));
  }

  private boolean allEnded(Set<String> ids) {
    return Measured.poll() && engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceIds(ids)
        .finished().count() == ids.size();
  }

  private long calls() {
    return ((ScriptedChatModel) model).calls();
  }

  private List<Step> agentLoop(int steps) {
    String id = runs.start(LoopShapes.AGENT, "loop" + steps + ": benchmark");
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> Measured.poll() && store.run(id).status() == RunStatus.ANSWERED);
    List<Step> thoughts = store.activePath(id).stream().filter(s -> s.kind() == StepKind.THOUGHT).toList();
    assertThat(thoughts).hasSize(steps);
    return thoughts;
  }

  private void bareLoop(int steps) {
    String id = LoopShapes.startBare(engine, LoopShapes.BARE, steps);
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> Measured.poll()
            && engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(id).count() == 0);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
