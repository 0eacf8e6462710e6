package dev.agentloop.resilience;

import dev.agentloop.llm.ChatModel;
import dev.agentloop.llm.ModelCallException;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.resilience.ResilienceMetrics.Outcome;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Puts model calls behind retry (transient errors) → the endpoint's circuit breaker → a time-out per
 * attempt. A call that still fails, or that an open breaker refuses, fails with a
 * {@link ModelCallException} whose message says why; the worker then reports a technical failure,
 * which external-task retries and finally an incident handle. Attempts, retry delays and time-outs run
 * on the given scheduler (AgentLoop's threads), never on the JDK's common pool. Thread-safe.
 */
public class ModelGuard {

  private final Breakers breakers;
  private final ErrorClassifier classifier;
  private final RetrySettings retry;
  private final Duration timeout;
  private final ResilienceMetrics metrics;
  private final ScheduledExecutorService scheduler;

  /**
   * @param timeout per attempt; a little longer than the adapter's own time-out, so that its message
   *     (which names the endpoint) wins, and an adapter without one cannot hang a step
   * @param scheduler runs the attempts, retry delays and time-outs
   */
  public ModelGuard(Breakers breakers, ErrorClassifier classifier, RetrySettings retry, Duration timeout,
      ResilienceMetrics metrics, ScheduledExecutorService scheduler) {
    this.breakers = breakers;
    this.classifier = classifier;
    this.retry = retry;
    this.timeout = timeout;
    this.metrics = metrics;
    this.scheduler = scheduler;
  }

  /** The model with every call guarded; the breaker is the endpoint's, shared with every other guarded model of it. */
  public ChatModel guard(ChatModel model) {
    CircuitBreaker<ModelReply> breaker = breakers.model(model.endpoint());
    RetryPolicy<ModelReply> retries = RetryPolicies.transientErrors(retry, classifier);
    FailsafeExecutor<ModelReply> executor = Failsafe.with(retries, breaker, Timeout.<ModelReply>of(timeout))
        .with(scheduler);
    return new Guarded(model, executor);
  }

  private final class Guarded implements ChatModel {

    private final ChatModel model;
    private final FailsafeExecutor<ModelReply> executor;

    Guarded(ChatModel model, FailsafeExecutor<ModelReply> executor) {
      this.model = model;
      this.executor = executor;
    }

    @Override
    public String endpoint() {
      return model.endpoint();
    }

    @Override
    public CompletionStage<ModelReply> chat(ModelRequest request) {
      long start = System.nanoTime();
      return executor.getStageAsync(() -> attempt(request)).handle((reply, error) -> {
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        if (error == null) {
          metrics.modelCall(endpoint(), latency, Outcome.SUCCESS);
          metrics.modelTokens(endpoint(), reply.tokens());
          return reply;
        }
        Throwable failure = ErrorClassifier.unwrap(error);
        metrics.modelCall(endpoint(), latency,
            failure instanceof CircuitBreakerOpenException ? Outcome.REJECTED : Outcome.FAILURE);
        throw new CompletionException(describe(failure));
      });
    }

    private CompletionStage<ModelReply> attempt(ModelRequest request) {
      return model.chat(request).whenComplete((reply, error) -> {
        if (error != null) {
          metrics.modelFailure(endpoint(), classifier.classify(error));
          breakers.noteFailure(Breakers.Kind.MODEL, endpoint(), error);
        }
      });
    }

    private Throwable describe(Throwable failure) {
      if (failure instanceof CircuitBreakerOpenException open) {
        // leads with the cause; says how long the breaker stays open, not when a next try comes: whether
        // one comes is the worker's to say (retries left, or an incident an operator retries)
        String last = breakers.lastFailure(Breakers.Kind.MODEL, endpoint());
        long openFor = Math.max(1, open.getCircuitBreaker().getRemainingDelay().toSeconds());
        return new ModelCallException((last == null ? "model endpoint " + endpoint() + " failed" : last)
            + "; it failed too often lately, so its circuit breaker is open and AgentLoop does not call it for about "
            + openFor + " s", true, 0, null);
      }
      if (failure instanceof TimeoutExceededException) {
        metrics.modelFailure(endpoint(), ErrorClass.TRANSIENT);
        breakers.noteFailure(Breakers.Kind.MODEL, endpoint(), failure);
        return new ModelCallException("model endpoint " + endpoint() + " did not answer within "
            + timeout.toMillis() + " ms", true, 0, failure);
      }
      return failure;
    }
  }
}
