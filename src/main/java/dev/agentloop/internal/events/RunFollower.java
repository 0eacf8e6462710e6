package dev.agentloop.internal.events;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunWatchers;
import dev.agentloop.internal.trace.StepStore;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client following one run: reads the run on a timer and whenever this JVM wrote a change of it, and sends what
 * is new since its cursor ({@link RunChanges}). The timer is what makes it work in a cluster: a step another node
 * wrote is read from the store like any other. Reads and sends run one at a time (synchronized), on the followers' threads; the model's text is queued
 * by the thread of the model call and sent from there too, so that a slow client never holds up a model call, and
 * before the steps each read finds, so that a reply's text comes before its step.
 */
final class RunFollower implements RunEvents.Following {

  private static final Logger LOG = LoggerFactory.getLogger(RunFollower.class);

  private final String runId;
  private final RunEventSink sink;
  private final RunMoments moments;
  private final StepStore store;
  private final RunChanges changes;
  private final RunEventsSettings settings;
  private final Runnable onClose;
  private final AtomicBoolean woken = new AtomicBoolean();
  private final Queue<RunEvent> text = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean textScheduled = new AtomicBoolean();
  private final long deadline;
  private long lastSent;
  private boolean warned;
  private volatile boolean closed;
  private ScheduledFuture<?> ticks;
  private RunWatchers.Registration registration;
  private volatile ScheduledExecutorService timer;

  RunFollower(String runId, EventCursor from, RunEventSink sink, RunMoments moments, StepStore store, RunService runs,
      RunEventsSettings settings, Runnable onClose) {
    this.runId = runId;
    this.sink = sink;
    this.moments = moments;
    this.store = store;
    this.changes = new RunChanges(runId, from, store, runs);
    this.settings = settings;
    this.onClose = onClose;
    this.lastSent = System.nanoTime();
    this.deadline = lastSent + settings.maxDuration().toNanos();
  }

  synchronized void start(ScheduledExecutorService timer) {
    this.timer = timer;
    registration = store.watchers().watch(runId, this::wake);
    ticks = timer.scheduleWithFixedDelay(this::tick, 0, settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
  }

  String runId() {
    return runId;
  }

  /** A change of the run was written in this JVM: read it now rather than at the next tick. */
  private void wake() {
    if (closed || !woken.compareAndSet(false, true)) {
      return;
    }
    try {
      timer.execute(() -> {
        woken.set(false);
        tick();
      });
    } catch (RejectedExecutionException e) {
      woken.set(false); // shutting down: the followers are closed
    }
  }

  synchronized void tick() {
    if (closed) {
      return;
    }
    try {
      if (System.nanoTime() - deadline >= 0) {
        close(null);
        return;
      }
      sendQueuedText();
      RunMoment moment = moments.read(runId);
      changes.sendSince(moment, this::send);
      if (moment.state().equals("E")) {
        close(null);
      } else if (System.nanoTime() - lastSent >= settings.keepAlive().toNanos()) {
        sink.keepAlive();
        lastSent = System.nanoTime();
      }
      warned = false;
    } catch (IOException e) {
      close(e);
    } catch (UnknownRunException e) {
      close(e); // its trace was deleted
    } catch (RuntimeException e) {
      if (!warned) {
        LOG.warn("AGENTLOOP-502 Could not read run {} for a client that follows it; trying again every {}: {}. Check"
            + " the database connection if this repeats", runId, settings.pollInterval(), e.toString());
        warned = true;
      }
    }
  }

  /** A piece of model text, or word that it was dropped: queued, and sent as soon as a follower's thread is free. */
  void text(RunEvent delta) {
    if (closed) {
      return;
    }
    text.add(delta);
    if (timer != null && textScheduled.compareAndSet(false, true)) {
      try {
        timer.execute(this::sendText);
      } catch (RejectedExecutionException e) {
        textScheduled.set(false); // shutting down: the followers are closed
      }
    }
  }

  private synchronized void sendText() {
    textScheduled.set(false);
    try {
      sendQueuedText();
    } catch (IOException e) {
      close(e);
    }
  }

  private void sendQueuedText() throws IOException {
    for (RunEvent delta = text.poll(); delta != null && !closed; delta = text.poll()) {
      send(delta);
    }
  }

  private void send(RunEvent event) throws IOException {
    sink.send(event);
    lastSent = System.nanoTime();
  }

  @Override
  public void close() {
    close(null);
  }

  private synchronized void close(Throwable failure) {
    if (closed) {
      return;
    }
    closed = true;
    if (ticks != null) {
      ticks.cancel(false);
    }
    if (registration != null) {
      registration.close();
    }
    onClose.run();
    try {
      sink.closed(failure);
    } catch (RuntimeException e) {
      LOG.debug("The sink of a follower of run {} failed on close", runId, e);
    }
  }
}
