package dev.agentloop.benchmark;

import dev.agentloop.internal.trace.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * One long run, zero-latency model, no-op tool: the agent loop against the bare loop per iteration (a/b, target
 * at most 1.3), and how an iteration's time grows from step 50 to step 500 (target at most 1.2).
 */
final class LongRunFigures {

  private LongRunFigures() {}

  /**
   * @param agentLoop runs the agent loop for so many steps and returns its thoughts
   * @param bareLoop runs the bare loop for so many steps
   */
  static String loopAgainstBareLoop(IntFunction<List<Step>> agentLoop, IntConsumer bareLoop) {
    double[] agent100 = new double[5];
    double[] bare100 = new double[5];
    Measured agentCost = null;
    Measured bareCost = null;
    for (int i = 0; i < 5; i++) {
      Measured agent = Measured.of(100, () -> agentLoop.apply(100));
      Measured bare = Measured.of(100, () -> bareLoop.accept(100));
      agent100[i] = agent.msPerIteration();
      bare100[i] = bare.msPerIteration();
      agentCost = agent;
      bareCost = bare;
    }
    List<Step> thoughts = new ArrayList<>();
    Map<String, Long> statementsBefore = SqlCounter.byText();
    Measured agent1000 = Measured.of(1000, () -> thoughts.addAll(agentLoop.apply(1000)));
    String frequent = SqlCounter.mostFrequent(statementsBefore, SqlCounter.byText(), 1000, 15);
    Measured bare1000 = Measured.of(1000, () -> bareLoop.accept(1000));
    double a100 = LoopFigures.median(agent100);
    double b100 = LoopFigures.median(bare100);
    double early = msPerIterationAround(thoughts, 50);
    double late = msPerIterationAround(thoughts, 500);
    double a1000 = agent1000.msPerIteration() / bare1000.msPerIteration();
    return String.format(Locale.ROOT,
        "(a, b) one run, zero-latency model, no-op tool   agent loop   bare loop   a/b (target <= 1.3)%n"
            + "      ms/iteration,  100 steps (median of 5)  %8.2f     %8.2f     %5.2f  %s%n"
            + "      ms/iteration, 1000 steps                %8.2f     %8.2f     %5.2f  %s%n"
            + "      CPU ms/iteration, 1000 steps            %8.2f     %8.2f     %5.2f%n"
            + "(c)   agent loop ms/iteration around step 50: %.2f, around step 500: %.2f, ratio %.2f (target <= 1.2: %s)%n"
            + "      per iteration, agent loop: %s%n"
            + "      per iteration, bare loop:  %s%n"
            + "      load average at the start: %.1f%n"
            + "      the agent loop's most frequent statements per iteration, 1000 steps (the benchmark's polls"
            + " included):%n%s",
        a100, b100, a100 / b100, BenchmarkReport.verdict(a100 / b100 <= 1.3), agent1000.msPerIteration(),
        bare1000.msPerIteration(), a1000, BenchmarkReport.verdict(a1000 <= 1.3), agent1000.cpuMsPerIteration(),
        bare1000.cpuMsPerIteration(), agent1000.cpuMsPerIteration() / bare1000.cpuMsPerIteration(),
        early, late, late / early, BenchmarkReport.verdict(late / early <= 1.2), agentCost.sql().per(100),
        bareCost.sql().per(100), agentCost.load(), frequent.stripTrailing());
  }

  /** Mean duration of the 50 iterations centred on {@code turn}, from the thoughts' timestamps. */
  private static double msPerIterationAround(List<Step> thoughts, int turn) {
    Step from = thoughts.get(turn - 26);
    Step to = thoughts.get(turn + 24);
    return Duration.between(from.createdAt(), to.createdAt()).toNanos() / 1e6 / 50;
  }
}
