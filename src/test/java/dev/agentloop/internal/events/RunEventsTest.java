package dev.agentloop.internal.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.StepStore;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The event source as other protocols use it: bounded in how many it follows, refusing a cursor of another run, and
 * ending a following whose sink fails, in the engine of the tests.
 */
@AgentLoopTest
class RunEventsTest {

  @Autowired ProcessEngine engine;
  @Autowired StepStore store;
  @Autowired RunService runs;

  @Test
  void should_follow_no_more_runs_than_allowed_and_take_one_more_once_a_following_ended() throws Exception {
    // given a source that follows one run at most
    String run = runs.start(TestAgent.REVIEWED, "multi-step: followed twice");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    try (RunEvents events = new RunEvents(engine, store, runs, settings(1), getClass().getClassLoader())) {
      Recorder first = new Recorder();
      RunEvents.Following following = events.follow(run, EventCursor.START, first);

      // then a second following is refused in words, and nothing is sent to it
      assertThatThrownBy(() -> events.follow(run, EventCursor.START, new Recorder()))
          .isInstanceOf(TooManyFollowersException.class).hasMessageContaining("agentloop.events.max-followers");
      assertThat(first.next().type()).isEqualTo("step");

      // when the first ends, the next is taken
      following.close();
      assertThat(first.closed.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(events.followers()).isZero();
      Recorder second = new Recorder();
      events.follow(run, EventCursor.START, second).close();
    }
  }

  @Test
  void should_refuse_an_unknown_run_and_a_cursor_past_the_runs_steps() {
    String run = runs.start(TestAgent.REVIEWED, "multi-step: cursor of another run");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    try (RunEvents events = new RunEvents(engine, store, runs, settings(10), getClass().getClassLoader())) {
      assertThatThrownBy(() -> events.follow("no-such-run", EventCursor.START, new Recorder()))
          .isInstanceOf(UnknownRunException.class);
      assertThatThrownBy(() -> events.follow(run, new EventCursor(42, "R"), new Recorder()))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step 42");
      assertThat(events.followers()).isZero();
    }
    assertThatThrownBy(() -> EventCursor.parse("12-X")).hasMessageContaining("12-X");
    assertThatThrownBy(() -> new EventCursor(-1, "R")).hasMessageContaining("negative");
    assertThat(EventCursor.parse(" 14-W3f2a9c1b ")).isEqualTo(new EventCursor(14, "W3f2a9c1b"));
  }

  @Test
  void should_end_a_following_whose_sink_fails_and_tell_it_why() throws Exception {
    String run = runs.start(TestAgent.REVIEWED, "multi-step: the client went away");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    try (RunEvents events = new RunEvents(engine, store, runs, settings(10), getClass().getClassLoader())) {
      Recorder gone = new Recorder();
      gone.failing = true;
      events.follow(run, EventCursor.START, gone);

      assertThat(gone.closed.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(gone.failure).isInstanceOf(java.io.IOException.class);
      assertThat(events.followers()).isZero();
    }
  }

  private static RunEventsSettings settings(int maxFollowers) {
    return new RunEventsSettings(Duration.ofMillis(200), Duration.ofSeconds(15), Duration.ofMinutes(5), maxFollowers,
        1);
  }

  /** A sink that keeps what it was sent, or fails as a client that went away. */
  private static final class Recorder implements RunEventSink {

    final BlockingQueue<RunEvent> events = new LinkedBlockingQueue<>();
    final CountDownLatch closed = new CountDownLatch(1);
    volatile boolean failing;
    volatile Throwable failure;

    @Override
    public void send(RunEvent event) throws java.io.IOException {
      if (failing) {
        throw new java.io.IOException("broken pipe");
      }
      events.add(event);
    }

    @Override
    public void closed(Throwable why) {
      failure = why;
      closed.countDown();
    }

    RunEvent next() throws InterruptedException {
      RunEvent event = events.poll(Runs.PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertThat(event).as("an event within " + Runs.PATIENCE).isNotNull();
      return event;
    }
  }
}
