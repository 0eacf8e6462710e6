package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agentloop.internal.resilience.ResilienceSettings.UnknownErrors;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Model calls through the guard: retries for transient errors, the endpoint's breaker, a time-out. */
class ModelGuardTest {

  private static final RetrySettings RETRY =
      new RetrySettings(3, Duration.ofMillis(1), Duration.ofMillis(4), 0.25, false);
  private static final ModelRequest REQUEST = new ModelRequest(ModelRequest.Purpose.THINK, List.of(), List.of(),
      new ModelRequest.RunInfo("run-1", "question", 1, 0));

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ResilienceMetrics metrics = new ResilienceMetrics(registry);
  private final ErrorClassifier classifier = new ErrorClassifier(List.of(), List.of(), UnknownErrors.PERSISTENT);
  private final Breakers breakers = new Breakers(new BreakerSettings(3, 3, Duration.ofMinutes(1), 1), Map.of(),
      new BreakerSettings(3, 3, Duration.ofMinutes(1), 1), classifier, metrics);
  private final ModelGuard guard = new ModelGuard(breakers, classifier, RETRY, Duration.ofMillis(300), queue(16), metrics,
      BreakersTest.SCHEDULER);

  @Test
  void should_retry_a_rate_limit_and_a_server_error_and_return_the_answer() {
    Scripted model = new Scripted(fail(429), fail(503), answer("42"));

    ModelReply reply = guard.guard(model).chat(REQUEST).toCompletableFuture().join();

    assertThat(reply.text()).isEqualTo("42");
    assertThat(model.calls).hasValue(3);
    assertThat(registry.get("agentloop.model.failures").tag("class", "transient").counter().count()).isEqualTo(2.0);
    assertThat(registry.get("agentloop.model.tokens").counter().count()).isEqualTo(7.0);
    assertThat(registry.get("agentloop.model.calls").tag("outcome", "success").timer().count()).isOne();
  }

  @Test
  void should_not_retry_a_bad_request() {
    Scripted model = new Scripted(fail(400), answer("never"));

    Throwable failure = catchThrowable(() -> guard.guard(model).chat(REQUEST).toCompletableFuture().join());

    assertThat(failure.getCause()).isInstanceOf(ModelCallException.class).hasMessage("HTTP 400");
    assertThat(model.calls).hasValue(1);
  }

  @Test
  void should_give_up_on_a_model_that_does_not_answer_and_say_so() {
    List<CompletableFuture<ModelReply>> hanging = List.of(new CompletableFuture<>(), new CompletableFuture<>(),
        new CompletableFuture<>());
    Scripted model = new Scripted(hanging.get(0), hanging.get(1), hanging.get(2));

    Throwable failure = catchThrowable(() -> guard.guard(model).chat(REQUEST).toCompletableFuture().join());

    assertThat(failure.getCause()).isInstanceOf(ModelCallException.class)
        .hasMessage("model endpoint test:model did not answer within 300 ms");
    assertThat(((ModelCallException) failure.getCause()).isRetryable()).isTrue();
    assertThat(model.calls).hasValue(3);
    // each attempt that ran out of time failed, and was cancelled: it does not go on at the provider unseen (the
    // time-out fails the call first and cancels the last attempt right after, on its own thread)
    assertThat(registry.get("agentloop.model.failures").tag("class", "transient").counter().count()).isEqualTo(3.0);
    await().atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(hanging).allSatisfy(attempt -> assertThat(attempt).isCancelled()));
  }

  @Test
  void should_fail_fast_once_the_endpoints_breaker_is_open_and_share_it_between_guarded_models() {
    // given three failed attempts, which open the endpoint's breaker
    Scripted model = new Scripted(fail(500), fail(500), fail(500), answer("too late"));
    catchThrowable(() -> guard.guard(model).chat(REQUEST).toCompletableFuture().join());

    // when another guarded model of the same endpoint is called
    Throwable failure = catchThrowable(() -> guard.guard(model).chat(REQUEST).toCompletableFuture().join());

    // then it fails without a call, with a message for the incident that leads with the cause and
    // promises no next try (whether one comes is the worker's to say)
    assertThat(failure.getCause()).isInstanceOf(ModelCallException.class)
        .hasMessageStartingWith("HTTP 500; it failed too often lately, so its circuit breaker is open and AgentLoop"
            + " does not call it for about ")
        .hasMessageNotContaining("next try");
    assertThat(model.calls).hasValue(3);
    assertThat(breakers.find("model:test:model").orElseThrow().state()).isEqualTo("OPEN");
    assertThat(registry.get("agentloop.model.calls").tag("outcome", "rejected").timer().count()).isOne();
  }

  @Test
  void should_wait_as_long_as_the_endpoint_asks_before_the_next_attempt() {
    // given an endpoint that answers 429 with Retry-After: 1 s, and a back-off of 1 ms ± 50 %
    RetrySettings retry = new RetrySettings(2, Duration.ofMillis(1), Duration.ofSeconds(5), 0.5, false);
    ModelGuard patient = new ModelGuard(breakers, classifier, retry, Duration.ofSeconds(5), queue(16), metrics,
        BreakersTest.SCHEDULER);
    Scripted model = new Scripted(rateLimited(Duration.ofSeconds(1)), answer("42"));

    // when
    ModelReply reply = patient.guard(model).chat(REQUEST).toCompletableFuture().join();

    // then the second attempt came no sooner than asked (a lower bound: a busy machine only makes it later)
    assertThat(reply.text()).isEqualTo("42");
    assertThat(Duration.ofNanos(model.times.get(1) - model.times.get(0))).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void should_not_count_the_wait_in_the_endpoints_queue_against_the_calls_time_out() throws Exception {
    // given two calls at once at the endpoint, each answered in 1.5 s, and a time-out of 3 s per attempt
    ExecutorService modelThreads = Executors.newFixedThreadPool(2);
    AtomicInteger sent = new AtomicInteger();
    ChatModel slow = new ChatModel() {
      @Override
      public CompletionStage<ModelReply> chat(ModelRequest request) {
        return CompletableFuture.supplyAsync(() -> {
          sent.incrementAndGet();
          sleep(1500);
          return new ModelReply("42", List.of(), 7);
        }, modelThreads);
      }

      @Override
      public String endpoint() {
        return "test:slow";
      }
    };
    ModelGuard twoAtOnce = new ModelGuard(breakers, classifier, RETRY, Duration.ofSeconds(3), queue(2), metrics,
        BreakersTest.SCHEDULER);
    ChatModel guarded = twoAtOnce.guard(slow);

    try {
      // when six calls come at once: the last two would wait 3 s for a thread
      List<CompletableFuture<ModelReply>> calls = java.util.stream.IntStream.range(0, 6)
          .mapToObj(i -> guarded.chat(REQUEST).toCompletableFuture()).toList();

      // then each is answered by its first attempt: no time-out, no retry, nothing against the breaker
      assertThat(calls).allSatisfy(call -> assertThat(call.get(30, TimeUnit.SECONDS).text()).isEqualTo("42"));
      assertThat(sent).hasValue(6);
      assertThat(registry.find("agentloop.model.failures").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
      assertThat(breakers.find("model:test:slow").orElseThrow().state()).isEqualTo("CLOSED");
    } finally {
      modelThreads.shutdownNow();
    }
  }

  private static ModelQueue queue(int maxInFlight) {
    return new ModelQueue(maxInFlight, 0, 0, BreakersTest.SCHEDULER);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void should_wait_no_longer_than_max_delay_whatever_the_endpoint_asks() {
    assertThat(RetryPolicies.requestedWait(new RuntimeException(new ModelCallException("HTTP 429", true, 429,
        Duration.ofHours(1), null)), Duration.ofSeconds(30), 0)).isEqualTo(Duration.ofSeconds(30));
    assertThat(RetryPolicies.requestedWait(new ModelCallException("HTTP 503", true, 503, Duration.ofSeconds(2), null),
        Duration.ofSeconds(30), 0)).isEqualTo(Duration.ofSeconds(2));
    assertThat(RetryPolicies.requestedWait(new ModelCallException("HTTP 503", true, 503, Duration.ofSeconds(3), null),
        Duration.ofSeconds(30), 0.25)).as("stretched so that jitter (± 25 %) never makes it shorter")
        .isEqualTo(Duration.ofSeconds(4));
    assertThat(RetryPolicies.requestedWait(new ModelCallException("HTTP 503", true, 503, null), Duration.ofSeconds(30),
        0)).as("no Retry-After: the back-off applies").isEqualTo(RetryPolicies.BACK_OFF);
  }

  private static CompletionStage<ModelReply> rateLimited(Duration retryAfter) {
    return CompletableFuture.failedFuture(new ModelCallException("HTTP 429", true, 429, retryAfter, null));
  }

  private static CompletionStage<ModelReply> fail(int status) {
    return CompletableFuture.failedFuture(new ModelCallException("HTTP " + status, status >= 429, status, null));
  }

  private static CompletionStage<ModelReply> answer(String text) {
    return CompletableFuture.completedFuture(new ModelReply(text, List.of(), 7));
  }

  private static CompletionStage<ModelReply> hang() {
    return new CompletableFuture<>();
  }

  /** Answers each call with the next stage; counts the calls. */
  private static final class Scripted implements ChatModel {

    final AtomicInteger calls = new AtomicInteger();
    final List<Long> times = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Deque<CompletionStage<ModelReply>> replies;

    @SafeVarargs
    Scripted(CompletionStage<ModelReply>... replies) {
      this.replies = new ArrayDeque<>(List.of(replies));
    }

    @Override
    public synchronized CompletionStage<ModelReply> chat(ModelRequest request) {
      calls.incrementAndGet();
      times.add(System.nanoTime());
      return replies.isEmpty() ? answer("unscripted") : replies.poll();
    }

    @Override
    public String endpoint() {
      return "test:model";
    }
  }
}
