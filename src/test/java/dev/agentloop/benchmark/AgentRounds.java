package dev.agentloop.benchmark;

import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;

/**
 * One round of many runs started at once, as clients of the REST API would start them (LangGraph.js' harness
 * starts all its runs at once): when it began, which runs it started, and, once all ended, what the provider
 * received against what the runs counted, and when their answers came: under a backlog, the first answer
 * should come in about the time one run needs, not after all the others'.
 */
final class AgentRounds {

  /** When the answers of a round came, from its start. */
  record Answers(Duration first, Duration median, Duration last) {

    String describe() {
      return String.format(Locale.ROOT, "first answer after %.1f s, median %.1f s, last %.1f s",
          first.toMillis() / 1e3, median.toMillis() / 1e3, last.toMillis() / 1e3);
    }
  }

  /** The provider's calls during a round against the sum of its runs' counts. */
  record Calls(long received, long counted) {

    String describe() {
      return String.format(Locale.ROOT, "the model received %,d calls, the runs counted %,d (%s)", received, counted,
          received == counted ? "none paid twice" : "NOT EQUAL");
    }
  }

  record Round(Set<String> ids, Instant startedAt, long callsBefore) {}

  private AgentRounds() {}

  /** Starts {@code count} runs from {@code threads} threads and waits until {@code ended} says all of them ended. */
  static Round run(int count, int threads, IntFunction<String> start, LongSupplier calls,
      java.util.function.Predicate<Set<String>> ended) {
    long callsBefore = calls.getAsLong();
    Instant startedAt = Instant.now();
    ExecutorService starters = Executors.newFixedThreadPool(threads);
    Set<String> ids;
    try {
      List<Future<String>> started = IntStream.range(0, count)
          .mapToObj(i -> starters.submit(() -> start.apply(i))).toList();
      ids = started.stream().map(AgentRounds::id).collect(Collectors.toSet());
    } finally {
      starters.shutdown();
    }
    BooleanSupplier done = () -> ended.test(ids);
    await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(250)).until(done::getAsBoolean);
    return new Round(ids, startedAt, callsBefore);
  }

  /** When the round's answers came, from the run records' end times. */
  static Answers answers(Round round, StepStore store) {
    List<Duration> after = new ArrayList<>();
    for (String id : round.ids()) {
      RunRecord run = store.run(id);
      if (run.endedAt() != null) {
        after.add(Duration.between(round.startedAt(), run.endedAt()));
      }
    }
    Collections.sort(after);
    return new Answers(after.get(0), after.get(after.size() / 2), after.get(after.size() - 1));
  }

  static Calls calls(Round round, StepStore store, long callsAfter) {
    long counted = round.ids().stream().mapToLong(id -> store.run(id).modelCalls()).sum();
    return new Calls(callsAfter - round.callsBefore(), counted);
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
}
