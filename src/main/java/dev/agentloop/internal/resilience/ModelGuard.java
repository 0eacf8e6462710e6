package dev.agentloop.internal.resilience;

import dev.agentloop.internal.async.StillWanted;
import dev.agentloop.internal.llm.limits.CallTicket;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.internal.resilience.ResilienceMetrics.Outcome;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Puts model calls behind the endpoint's queue ({@link ModelQueue}: the limits its provider sets, runs in the
 * order they came, no thread held while waiting) → retry (transient errors) → the endpoint's circuit breaker →
 * a time-out per attempt. The queue's wait never counts as the endpoint's time: the time-out starts once a call is
 * admitted. A call that waited is not sent when the step it is for no longer wants it ({@link StillWanted}).
 * A call that still fails, or that an open breaker refuses, fails with a
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
  private final CallPipeline calls;
  private final ModelQueue queue;
  private final AtomicBoolean queueMeasured = new AtomicBoolean();

  /**
   * @param timeout per attempt; a little longer than the adapter's own time-out, so that its message
   *     (which names the endpoint) wins, and an adapter without one cannot hang a step
   * @param queue the endpoint's queue, in front of every attempt and its time-out
   * @param scheduler runs the attempts, retry delays and time-outs
   */
  ModelGuard(Breakers breakers, ErrorClassifier classifier, RetrySettings retry, Duration timeout,
      ModelQueue queue, ResilienceMetrics metrics, ScheduledExecutorService scheduler) {
    this.breakers = breakers;
    this.classifier = classifier;
    this.retry = retry;
    this.timeout = timeout;
    this.metrics = metrics;
    this.calls = new CallPipeline(breakers, classifier, scheduler);
    this.queue = queue;
  }

  /**
   * The model with every call guarded; the breaker is the endpoint's, and the queue is shared with every
   * other guarded model (the plan's and the turns').
   */
  public ChatModel guard(ChatModel model) {
    queue.named(model.endpoint());
    if (queueMeasured.compareAndSet(false, true)) {
      metrics.modelQueue(model.endpoint(), queue::waiting, queue::inFlight);
    }
    String endpoint = model.endpoint();
    // each attempt that ran out of time is a failed attempt of the endpoint's, whether a retry then succeeds or not;
    // the attempt is cancelled, and with it its exchange with the endpoint
    Timeout<ModelReply> perAttempt = Timeout.<ModelReply>builder(timeout).onFailure(event -> {
      metrics.modelFailure(endpoint, ErrorClass.TRANSIENT);
      breakers.noteFailure(Breakers.Kind.MODEL, endpoint, event.getException());
    }).build();
    FailsafeExecutor<ModelReply> pipeline = calls.pipeline(RetryPolicies.transientErrors(retry, classifier),
        breakers.model(endpoint), perAttempt);
    return new Guarded(model, pipeline);
  }

  private final class Guarded implements ChatModel, CallPipeline.Call<ModelReply> {

    private final ChatModel model;
    private final FailsafeExecutor<ModelReply> pipeline;

    Guarded(ChatModel model, FailsafeExecutor<ModelReply> pipeline) {
      this.model = model;
      this.pipeline = pipeline;
    }

    @Override
    public String endpoint() {
      return model.endpoint();
    }

    @Override
    public CompletionStage<ModelReply> chat(ModelRequest request) {
      CallTicket ticket = new CallTicket(request.run().runId(), promptTokens(request),
          StillWanted.current());
      return queue.run(ticket, admitted -> calls.call(pipeline, this, () -> model.chat(request))
          .whenComplete((reply, error) -> {
            if (reply != null) {
              admitted.used(reply.tokens());
            }
          }));
    }

    /** What the prompt comes to, as the model estimates its tokens: counted against tokens per minute. */
    private long promptTokens(ModelRequest request) {
      long tokens = 0;
      for (ChatMessage message : request.messages()) {
        tokens += model.estimateTokens(text(message));
      }
      return tokens;
    }

    private static String text(ChatMessage message) {
      if (message instanceof ChatMessage.SystemMessage system) {
        return system.text();
      }
      if (message instanceof ChatMessage.UserMessage user) {
        return user.text();
      }
      if (message instanceof ChatMessage.AssistantMessage assistant) {
        return assistant.text();
      }
      return ((ChatMessage.ToolResultMessage) message).text();
    }

    @Override
    public int estimateTokens(String text) {
      return model.estimateTokens(text);
    }

    @Override
    public Breakers.Kind kind() {
      return Breakers.Kind.MODEL;
    }

    @Override
    public String target() {
      return endpoint();
    }

    @Override
    public void attemptFailed(ErrorClass errorClass) {
      metrics.modelFailure(endpoint(), errorClass);
    }

    @Override
    public void finished(ModelReply reply, Outcome outcome, Duration latency) {
      metrics.modelCall(endpoint(), latency, outcome);
      if (outcome == Outcome.SUCCESS) {
        metrics.modelTokens(endpoint(), reply.tokens());
      }
    }

    /**
     * Leads with the cause; says how long the breaker stays open, not when a next try comes: whether
     * one comes is the worker's to say (retries left, or an incident an operator retries).
     */
    @Override
    public Throwable refused(long openForSeconds, String lastFailure) {
      return new ModelCallException((lastFailure == null ? "model endpoint " + endpoint() + " failed" : lastFailure)
          + "; " + CallPipeline.FAILED_TOO_OFTEN + ", so its circuit breaker is open and AgentLoop does not call it"
          + " for about " + openForSeconds + " s", true, 0, null);
    }

    /** A call whose last attempt ran out of time (counted as each attempt did, by the time-out) says so in words. */
    @Override
    public Throwable failed(Throwable failure) {
      if (failure instanceof TimeoutExceededException) {
        return new ModelCallException("model endpoint " + endpoint() + " did not answer within "
            + timeout.toMillis() + " ms", true, 0, failure);
      }
      return failure;
    }
  }
}
