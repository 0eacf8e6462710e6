package dev.agentloop.internal.resilience;

import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.async.Cancellations;
import dev.agentloop.internal.resilience.ResilienceMetrics.Outcome;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The one Failsafe wrapper of model and tool calls: builds a call's pipeline (retry → the target's
 * circuit breaker → [a time-out per attempt] → the attempt), runs calls through it on AgentLoop's
 * scheduler (never the JDK's common pool), counts each failed attempt against the breaker and in the
 * metrics, times the call, and turns an open breaker into the caller's own refusal. {@link ModelGuard}
 * and {@link ToolGuard} say only what differs: which breaker and retries, what is counted, how
 * a refusal and a failure read. Thread-safe.
 */
final class CallPipeline {

  /** Why a breaker refuses calls, in the same words for a model endpoint and a tool. */
  static final String FAILED_TOO_OFTEN = "it failed too often lately";

  private final Breakers breakers;
  private final ErrorClassifier classifier;
  private final ScheduledExecutorService scheduler;

  /** @param scheduler runs the attempts, retry delays and time-outs */
  CallPipeline(Breakers breakers, ErrorClassifier classifier, ScheduledExecutorService scheduler) {
    this.breakers = breakers;
    this.classifier = classifier;
    this.scheduler = scheduler;
  }

  /** Retry, then the breaker, then the attempt. */
  <R> FailsafeExecutor<R> pipeline(RetryPolicy<R> retries, CircuitBreaker<R> breaker) {
    return Failsafe.with(retries, breaker).with(scheduler);
  }

  /** Retry, then the breaker, then the attempt under a time-out. */
  <R> FailsafeExecutor<R> pipeline(RetryPolicy<R> retries, CircuitBreaker<R> breaker, Timeout<R> timeout) {
    return Failsafe.with(retries, breaker, timeout).with(scheduler);
  }

  /** What one kind of call counts, and how its refusals and failures read. */
  interface Call<R> {

    /** Whose breaker guards the call. */
    Breakers.Kind kind();

    String target();

    /** An attempt failed (it is noted against the breaker too). */
    void attemptFailed(ErrorClass errorClass);

    /** The call ended: {@code result} is {@code null} unless it succeeded. */
    void finished(R result, Outcome outcome, Duration latency);

    /**
     * What the call fails with when the breaker is open.
     *
     * @param openForSeconds how long the breaker stays open, at least a second
     * @param lastFailure the message of the breaker's last failure, {@code null} when none is known
     */
    Throwable refused(long openForSeconds, String lastFailure);

    /** What the call fails with when its last attempt failed (by default that attempt's error). */
    default Throwable failed(Throwable failure) {
      return failure;
    }
  }

  /**
   * Calls {@code attempt} through the pipeline; the stage completes with the result, or fails with a
   * {@link CompletionException} around {@link Call#refused} or {@link Call#failed}.
   */
  <R> CompletionStage<R> call(FailsafeExecutor<R> pipeline, Call<R> call, Supplier<CompletionStage<R>> attempt) {
    long start = System.nanoTime();
    Supplier<CompletionStage<R>> counted = () -> {
      CompletableFuture<R> inner = attempt.get().toCompletableFuture();
      // an attempt its time-out cancelled is counted by the time-out (Call#timedOut), and is cancelled in turn
      return Cancellations.passedBack(inner.whenComplete((result, error) -> {
        Throwable failure = error == null ? null : AsyncFailures.unwrap(error);
        if (failure != null && !(failure instanceof CircuitBreakerOpenException)
            && !(failure instanceof CancellationException)) {
          call.attemptFailed(classifier.classify(error));
          breakers.noteFailure(call.kind(), call.target(), error);
        }
      }), inner);
    };
    return pipeline.getStageAsync(counted::get).handle((result, error) -> {
      Duration latency = Duration.ofNanos(System.nanoTime() - start);
      if (error == null) {
        call.finished(result, Outcome.SUCCESS, latency);
        return result;
      }
      Throwable failure = AsyncFailures.unwrap(error);
      if (failure instanceof CircuitBreakerOpenException open) {
        call.finished(null, Outcome.REJECTED, latency);
        long openFor = Math.max(1, open.getCircuitBreaker().getRemainingDelay().toSeconds());
        throw new CompletionException(call.refused(openFor, breakers.lastFailure(call.kind(), call.target())));
      }
      call.finished(null, Outcome.FAILURE, latency);
      throw new CompletionException(call.failed(failure));
    });
  }
}
