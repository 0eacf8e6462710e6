package dev.agentloop.internal.resilience;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Finds loops in the latest tool calls of a run's active path (at most {@code window} of them):
 * <ul>
 *   <li><b>repeat</b>: the same call ({@link CallSignature tool and normalised arguments}) made
 *       {@code maxRepeats} times, or the same {@link Call#refusedReply refused reply};
 *   <li><b>cycle</b>: 2 to {@code maxCycleLength} different calls made in the same order
 *       {@code maxCycles} times in a row (A, B, A, B or A, B, C, A, B, C);
 *   <li><b>failure</b>: the same error from the same tool {@code maxSameFailures} times.
 * </ul>
 * Reaching a limit is a {@link Level#WARNING} (the model is told); going past it, once warned, is a
 * {@link Level#LOOP}. Calls with other arguments, such as pages 1, 2, 3 of a listing, are other calls.
 * Cycles are looked for up to half the window (by default 10 of 20 calls): every cycle the window can
 * hold twice. That costs at most window × maxCycleLength signature comparisons per check (200), next
 * to nothing beside a model call; longer cycles are left to the step budget. Thread-safe (immutable).
 */
public class LoopDetector {

  /** How bad it is. */
  public enum Level { NONE, WARNING, LOOP }

  /**
   * One tool call of the active path, oldest first.
   *
   * @param signature see {@link CallSignature}
   * @param description how a person or the model reads the call, e.g. {@code calculator {"expression":"1/0"}};
   *     for a refused reply, why it was refused
   * @param failure the error it got, or {@code null} when it succeeded
   */
  public record Call(String tool, String signature, String description, String failure) {

    private static final String REFUSED_REPLY = "(refused reply)";

    public Call {
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(description, "description");
    }

    /**
     * A model reply that was refused as a whole (too many calls at once, too long, empty), in the
     * place of a call: the same refusal again and again is a loop like the same call again and again.
     * Refusals that differ only in their numbers (30 or 31 calls at once) are the same refusal.
     */
    public static Call refusedReply(String problem) {
      return new Call(REFUSED_REPLY, "refused reply\u0000" + normalised(problem).replaceAll("[0-9]+", "#"),
          problem, null);
    }

    boolean isRefusedReply() {
      return tool.equals(REFUSED_REPLY);
    }
  }

  /**
   * @param pattern {@code repeat}, {@code cycle} or {@code failure}; {@code null} for none
   * @param finding what was found, in words for the model and for people
   */
  public record Verdict(Level level, String pattern, String finding) {

    public static final Verdict NONE = new Verdict(Level.NONE, null, null);
  }

  /** The limits of one agent. */
  public record Limits(int maxRepeats, int maxCycles, int maxSameFailures) {

    public Limits {
      if (maxRepeats < 1 || maxCycles < 1 || maxSameFailures < 1) {
        throw new IllegalArgumentException("loop limits must be at least 1: maxRepeats " + maxRepeats
            + ", maxCycles " + maxCycles + ", maxSameFailures " + maxSameFailures);
      }
    }
  }

  private final int window;
  private final int maxCycleLength;

  /**
   * @param window how many of the latest calls are looked at
   * @param maxCycleLength the longest cycle looked for, at least 2
   */
  public LoopDetector(int window, int maxCycleLength) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, was " + window);
    }
    if (maxCycleLength < 2) {
      throw new IllegalArgumentException("maxCycleLength must be at least 2, was " + maxCycleLength);
    }
    this.window = window;
    this.maxCycleLength = maxCycleLength;
  }

  /** The worst of the three patterns in the latest calls; a loop outranks a warning. */
  public Verdict check(List<Call> path, Limits limits) {
    List<Call> calls = path.subList(Math.max(0, path.size() - window), path.size());
    Verdict worst = Verdict.NONE;
    for (Verdict verdict : List.of(repeats(calls, limits), cycle(calls, limits), failures(calls, limits))) {
      if (verdict.level().ordinal() > worst.level().ordinal()) {
        worst = verdict;
      }
    }
    return worst;
  }

  private static Verdict repeats(List<Call> calls, Limits limits) {
    Map<String, Integer> counts = new HashMap<>();
    Call most = null;
    int max = 0;
    for (Call call : calls) {
      int count = counts.merge(call.signature(), 1, Integer::sum);
      if (count > max) {
        max = count;
        most = call;
      }
    }
    String finding = most == null ? ""
        : most.isRefusedReply() ? "the model's reply was refused " + max + " times for the same reason: "
            + most.description()
        : "the same call " + most.description() + " was made " + max + " times";
    return verdict(max, limits.maxRepeats(), "repeat", finding);
  }

  private Verdict cycle(List<Call> calls, Limits limits) {
    Verdict worst = Verdict.NONE;
    for (int period = 2; period <= maxCycleLength && period * 2 <= calls.size(); period++) {
      int length = periodicTail(calls, period);
      if (length >= period * 2 && distinct(calls.subList(calls.size() - period, calls.size()))) {
        List<Call> cycle = calls.subList(calls.size() - length, calls.size() - length + period);
        String finding = "the calls " + String.join(" → ", cycle.stream().map(LoopDetector::described).toList())
            + " were made in this order " + (length / period) + " times in a row"
            + (length % period == 0 ? "" : " and begun again");
        int full = length / period;
        Verdict verdict = full > limits.maxCycles() || full == limits.maxCycles() && length % period > 0
            ? new Verdict(Level.LOOP, "cycle", finding)
            : full == limits.maxCycles() ? new Verdict(Level.WARNING, "cycle", finding) : Verdict.NONE;
        if (verdict.level().ordinal() > worst.level().ordinal()) {
          worst = verdict;
        }
      }
    }
    return worst;
  }

  private static String described(Call call) {
    return call.isRefusedReply() ? "a refused reply (" + call.description() + ")" : call.description();
  }

  private static Verdict failures(List<Call> calls, Limits limits) {
    Map<String, Integer> counts = new HashMap<>();
    Call most = null;
    int max = 0;
    for (Call call : calls) {
      if (call.failure() != null) {
        int count = counts.merge(call.tool() + '\u0000' + normalised(call.failure()), 1, Integer::sum);
        if (count > max) {
          max = count;
          most = call;
        }
      }
    }
    return verdict(max, limits.maxSameFailures(), "failure",
        most == null ? "" : "'" + most.tool() + "' failed " + max + " times with the same error: " + most.failure());
  }

  private static Verdict verdict(int count, int limit, String pattern, String finding) {
    if (count > limit) {
      return new Verdict(Level.LOOP, pattern, finding);
    }
    return count == limit ? new Verdict(Level.WARNING, pattern, finding) : Verdict.NONE;
  }

  /** How many of the latest calls repeat with this period, counting the first period. */
  private static int periodicTail(List<Call> calls, int period) {
    int length = period;
    for (int i = calls.size() - period - 1; i >= 0; i--) {
      if (!calls.get(i).signature().equals(calls.get(i + period).signature())) {
        break;
      }
      length++;
    }
    return length;
  }

  private static boolean distinct(List<Call> calls) {
    Set<String> seen = new HashSet<>();
    return calls.stream().allMatch(call -> seen.add(call.signature()));
  }

  private static String normalised(String failure) {
    return failure.strip().replaceAll("\\s+", " ").toLowerCase(java.util.Locale.ROOT);
  }
}
