package dev.agentloop.internal.events;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.engine.ProcessEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs as streams of events ({@link RunEvent}), for any client that follows a run: {@code /api/runs/{id}/events},
 * MCP progress, A2A's {@code message/stream}.
 *
 * <p>{@link #follow} sends a sink what the run did after a cursor and then what it does, until it ended. Everything
 * but the model's text is read from the step store and the engine, so a follower on one node sees the steps
 * another node writes; a change written in this JVM wakes it at once, others are seen within
 * {@code agentloop.events.poll-interval}. Nothing about a follower is kept on the server: the cursor of each event
 * ({@link RunEvent#cursor()}, {@link EventCursor#id()}) is all a client needs to resume, on any node.
 *
 * <p>Who may follow a run is the caller's to check (as for reading the run) before calling {@link #follow}.
 * Thread-safe; sinks are called on this class's threads, one call at a time per follower.
 */
public final class RunEvents implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunEvents.class);

  private final StepStore store;
  private final RunService runs;
  private final RunMoments moments;
  private final RunEventsSettings settings;
  private final ScheduledThreadPoolExecutor timer;
  private final Map<String, Set<RunFollower>> followers = new ConcurrentHashMap<>();
  private final AtomicInteger count = new AtomicInteger();

  public RunEvents(ProcessEngine engine, StepStore store, RunService runs, RunEventsSettings settings,
      ClassLoader classLoader) {
    this.store = store;
    this.runs = runs;
    this.moments = new RunMoments(engine, store, runs);
    this.settings = Objects.requireNonNull(settings, "settings");
    this.timer = new ScheduledThreadPoolExecutor(settings.threads(), new AgentLoopThreads("agentloop-events-",
        classLoader));
    timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * Follows a run: sends {@code sink} the run's events after {@code from} — the steps written after its step, then
   * the run's state where it is not the cursor's — and then each new one as it happens, until the run ended, the
   * following lasted {@code agentloop.events.max-duration}, or it is closed. The first events go out at once, on
   * this class's threads.
   *
   * @param from {@link EventCursor#START} for the whole run, or the cursor of the last event the client received
   * @throws dev.agentloop.api.UnknownRunException when there is no such run
   * @throws IllegalArgumentException when {@code from} names a step the run does not have
   * @throws TooManyFollowersException when this node follows {@code agentloop.events.max-followers} already
   */
  public Following follow(String runId, EventCursor from, RunEventSink sink) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(sink, "sink");
    RunRecord run = store.run(runId);
    if (from.step() > run.head().stepCount()) {
      throw new IllegalArgumentException("the event id names step " + from.step() + ", but run " + runId + " has "
          + run.head().stepCount() + " steps: it is the id of another run's event");
    }
    if (count.incrementAndGet() > settings.maxFollowers()) {
      count.decrementAndGet();
      LOG.warn("AGENTLOOP-501 Refused to follow run {}: this node follows {} runs for clients already. Raise"
          + " agentloop.events.max-followers if the node has room, or spread the clients over more nodes", runId,
          settings.maxFollowers());
      throw new TooManyFollowersException(settings.maxFollowers());
    }
    RunFollower[] self = new RunFollower[1];
    self[0] = new RunFollower(runId, from, sink, moments, store, runs, settings, () -> forget(self[0]));
    followers.computeIfAbsent(runId, id -> ConcurrentHashMap.newKeySet()).add(self[0]);
    self[0].start(timer);
    return self[0];
  }

  /**
   * Hands a piece of a model's text to the followers of its run in this JVM (where the call is made); a run nobody
   * follows here costs a map lookup.
   */
  public void publish(RunEvent.TextDelta delta) {
    text(delta);
  }

  /** Tells the followers of a run in this JVM that the text of a call they were sent will become nothing. */
  public void publish(RunEvent.TextDropped dropped) {
    text(dropped);
  }

  private void text(RunEvent event) {
    for (RunFollower follower : followers.getOrDefault(event.runId(), Set.of())) {
      follower.text(event);
    }
  }

  /** How many followers this node serves now. */
  public int followers() {
    return count.get();
  }

  private void forget(RunFollower follower) {
    followers.computeIfPresent(follower.runId(), (id, set) -> {
      set.remove(follower);
      return set.isEmpty() ? null : set;
    });
    count.decrementAndGet();
  }

  /** Ends every following (their sinks are told) and stops the threads. */
  @Override
  public void close() {
    followers.values().forEach(set -> set.forEach(RunFollower::close));
    timer.shutdownNow();
  }

  /** A following of a run; closing it (twice does no harm) sends nothing more and tells the sink. */
  public interface Following extends AutoCloseable {
    @Override
    void close();
  }
}
