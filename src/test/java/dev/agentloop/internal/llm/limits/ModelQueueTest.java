package dev.agentloop.internal.llm.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's queue on a clock of the test's: calls at once, requests and tokens per minute, the provider's
 * pauses, the order of runs, calls no longer wanted, cancellation, and the room the worker is told of.
 */
class ModelQueueTest {

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final ManualTimer timer = new ManualTimer(clock);
  /** Every call the queue sent, by name, in the order it sent them; each completes when the test says. */
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private final Map<String, CompletableFuture<String>> underWay = new java.util.concurrent.ConcurrentHashMap<>();

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  @Test
  void should_start_no_more_calls_at_once_than_the_limit_and_the_next_as_one_ends() {
    ModelQueue queue = queue(2, 0, 0);

    List<CompletionStage<String>> calls = List.of(call(queue, "run-1", "a"), call(queue, "run-2", "b"),
        call(queue, "run-3", "c"));

    assertThat(sent).containsExactly("a", "b");
    assertThat(queue.waiting()).isOne();
    assertThat(queue.inFlight()).isEqualTo(2);
    answer("a");
    assertThat(sent).containsExactly("a", "b", "c");
    assertThat(calls.get(0).toCompletableFuture().join()).isEqualTo("reply to a");
  }

  @Test
  void should_let_an_older_runs_next_call_go_before_the_waiting_calls_of_newer_runs() {
    // given run 1 under way, and runs 2 and 3 waiting
    ModelQueue queue = queue(1, 0, 0);
    call(queue, "run-1", "1a");
    call(queue, "run-2", "2a");
    call(queue, "run-3", "3a");
    answer("1a");
    // when run 1's next call comes while run 3's first still waits
    call(queue, "run-1", "1b");
    assertThat(queue.ahead("run-3")).hasValue(1);
    call(queue, "run-4", "4a");
    answer("2a");

    // then run 1, which came first, goes first: it does not queue behind every run that came after it
    assertThat(sent).containsExactly("1a", "2a", "1b");
    assertThat(queue.ahead("run-3")).hasValue(0);
    assertThat(queue.ahead("run-4")).hasValue(1);
    assertThat(queue.ahead("run-1")).as("under way, not waiting").isEmpty();
  }

  @Test
  void should_send_no_more_requests_in_a_minute_than_allowed() {
    ModelQueue queue = queue(0, 2, 0);
    call(queue, "run-1", "a");
    call(queue, "run-2", "b");
    call(queue, "run-3", "c");
    answer("a");
    answer("b");
    assertThat(sent).containsExactly("a", "b");

    clock.addAndGet(TimeUnit.SECONDS.toNanos(59));
    timer.fire();
    assertThat(sent).as("within the minute of the first request").containsExactly("a", "b");

    clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
    timer.fire();
    assertThat(sent).containsExactly("a", "b", "c");
  }

  @Test
  void should_keep_within_tokens_per_minute_counting_what_the_reply_said_it_cost() {
    // given a limit of 1,000 tokens a minute and prompts estimated at 600
    ModelQueue queue = queue(0, 0, 1000);
    List<CallTicket.Admission> admissions = new ArrayList<>();
    queue.run(new CallTicket("run-1", 600, null), admission -> {
      admissions.add(admission);
      return send("a");
    });
    call(queue, "run-2", "b", 600);
    assertThat(sent).containsExactly("a");

    // when the first reply says it cost 300 tokens in all
    admissions.get(0).used(300);
    answer("a");

    // then the second fits
    assertThat(sent).containsExactly("a", "b");
  }

  @Test
  void should_send_nothing_while_the_provider_asked_to_wait_and_resume_after() {
    ModelQueue queue = queue(10, 0, 0);
    call(queue, "run-1", "a");

    queue.answered(429, Map.of("Retry-After", List.of("30")));
    call(queue, "run-2", "b");

    assertThat(sent).containsExactly("a");
    assertThat(queue.room()).isZero();
    clock.addAndGet(TimeUnit.SECONDS.toNanos(30));
    timer.fire();
    assertThat(sent).containsExactly("a", "b");
    assertThat(queue.room()).isEqualTo(8);
  }

  @Test
  void should_pause_when_the_rate_limit_headers_of_a_successful_answer_say_nothing_is_left() {
    ModelQueue queue = queue(10, 0, 0);
    queue.answered(200, Map.of("x-ratelimit-remaining-requests", List.of("0"), "x-ratelimit-reset-requests",
        List.of("2s")));
    call(queue, "run-1", "a");
    assertThat(sent).isEmpty();

    clock.addAndGet(TimeUnit.SECONDS.toNanos(2));
    timer.fire();
    assertThat(sent).containsExactly("a");
  }

  @Test
  void should_not_send_a_call_that_waited_when_its_step_no_longer_wants_it() {
    // given a run whose call waits behind another
    ModelQueue queue = queue(1, 0, 0);
    call(queue, "run-1", "a");
    AtomicInteger asked = new AtomicInteger();
    CompletionStage<String> stopped = queue.run(new CallTicket("run-2", 0, () -> {
      asked.incrementAndGet();
      return false;
    }), admission -> send("b"));
    CompletionStage<String> next = call(queue, "run-3", "c");

    // when the slot comes free after the run was stopped
    clock.addAndGet(TimeUnit.SECONDS.toNanos(5));
    answer("a");

    // then its call is not sent, the slot goes to the next, and nothing more is counted against the endpoint
    assertThat(sent).containsExactly("a", "c");
    assertThat(asked).hasValue(1);
    assertThatThrownBy(() -> stopped.toCompletableFuture().join()).isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(CallNotSent.class).hasMessageContaining("no longer needs it");
    answer("c");
    assertThat(next.toCompletableFuture().join()).isEqualTo("reply to c");
  }

  @Test
  void should_not_ask_a_call_that_did_not_wait_whether_it_is_still_wanted() {
    ModelQueue queue = queue(1, 0, 0);

    queue.run(new CallTicket("run-1", 0, () -> {
      throw new AssertionError("asked although it never waited");
    }), admission -> send("a"));

    assertThat(sent).containsExactly("a");
  }

  @Test
  void should_take_a_cancelled_call_out_of_the_queue_and_abort_one_under_way() {
    ModelQueue queue = queue(1, 0, 0);
    CompletionStage<String> running = call(queue, "run-1", "a");
    CompletionStage<String> waiting = call(queue, "run-2", "b");

    waiting.toCompletableFuture().cancel(true);
    running.toCompletableFuture().cancel(true);

    assertThat(queue.waiting()).isZero();
    assertThat(underWay.get("a")).as("the call under way was aborted").isCancelled();
    call(queue, "run-3", "c");
    assertThat(sent).as("the cancelled waiting call never went").containsExactly("a", "c");
  }

  @Test
  void should_tell_the_worker_when_there_is_room_again_after_there_was_none() {
    ModelQueue queue = queue(2, 0, 0);
    AtomicInteger told = new AtomicInteger();
    queue.onRoom(told::incrementAndGet);
    assertThat(queue.room()).isEqualTo(2);

    call(queue, "run-1", "a");
    call(queue, "run-2", "b");
    call(queue, "run-3", "c");
    assertThat(queue.room()).isZero();

    answer("a");
    assertThat(told).as("c took the slot: still no room").hasValue(0);
    answer("b");
    assertThat(queue.room()).isOne();
    assertThat(told).hasValue(1);
    assertThat(queue(0, 0, 0).room()).as("no limit").isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void should_refuse_negative_limits_naming_them() {
    assertThatThrownBy(() -> new ModelQueue(-1, 0, 0, timer)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max-in-flight -1");
  }

  private ModelQueue queue(int maxInFlight, int requestsPerMinute, int tokensPerMinute) {
    return new ModelQueue(maxInFlight, requestsPerMinute, tokensPerMinute, timer, clock::get);
  }

  private CompletionStage<String> call(ModelQueue queue, String run, String name) {
    return call(queue, run, name, 0);
  }

  private CompletionStage<String> call(ModelQueue queue, String run, String name, long tokens) {
    return queue.run(new CallTicket(run, tokens, null), admission -> send(name));
  }

  private CompletableFuture<String> send(String name) {
    sent.add(name);
    CompletableFuture<String> reply = new CompletableFuture<>();
    underWay.put(name, reply);
    return reply;
  }

  private void answer(String name) {
    underWay.get(name).complete("reply to " + name);
  }

  /** Runs what the queue scheduled once the test's clock reaches its time, when the test says. */
  private static final class ManualTimer extends ScheduledThreadPoolExecutor {

    private record Due(Runnable task, long at, ScheduledFuture<?> future) {}

    private final AtomicLong clock;
    private final List<Due> due = new CopyOnWriteArrayList<>();

    ManualTimer(AtomicLong clock) {
      super(1);
      this.clock = clock;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
      ScheduledFuture<?> pending = super.schedule(() -> { }, 1, TimeUnit.DAYS);
      due.add(new Due(task, clock.get() + unit.toNanos(delay), pending));
      return pending;
    }

    /** Runs every task due by the clock and not cancelled, each then done as a fired timer's is. */
    void fire() {
      for (Due next : List.copyOf(due)) {
        if (next.at() - clock.get() <= 0) {
          due.remove(next);
          if (!next.future().isCancelled()) {
            next.task().run();
            next.future().cancel(false);
          }
        }
      }
    }
  }
}
