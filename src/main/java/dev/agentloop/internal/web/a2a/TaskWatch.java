package dev.agentloop.internal.web.a2a;

import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.EventCursor;
import dev.agentloop.internal.events.RunEvent;
import dev.agentloop.internal.events.RunEventSink;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.events.TooManyFollowersException;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a task to settle — to end or to wait for input — as a blocking {@code SendMessage} does: it follows the
 * run's events ({@link RunEvents}) and reads the run again when it waits, resumes or ends, and gives up at
 * {@code agentloop.a2a.max-wait}, with the task as it stands then. No thread waits meanwhile. Thread-safe.
 */
final class TaskWatch {

  private final RunEvents events;
  private final RunService runs;

  TaskWatch(RunEvents events, RunService runs) {
    this.events = events;
    this.runs = runs;
  }

  static boolean settled(TaskState state) {
    return state.terminal() || state.interrupted();
  }

  /** The run once the task settled, or as it stands after {@code maxWait}. */
  CompletableFuture<RunView> settled(TaskRef ref, RunView now, Duration maxWait) {
    if (settled(A2aTasks.state(now, ref.turn()))) {
      return CompletableFuture.completedFuture(now);
    }
    CompletableFuture<RunView> done = new CompletableFuture<>();
    RunEvents.Following following;
    try {
      following = events.follow(ref.runId(), new EventCursor(now.steps(), "N"), new Sink(ref, done));
    } catch (TooManyFollowersException e) {
      // the task as it stands: the caller asks again with GetTask
      return CompletableFuture.completedFuture(now);
    }
    done.completeOnTimeout(null, maxWait.toMillis(), TimeUnit.MILLISECONDS);
    return done.handle((view, error) -> {
      following.close();
      return view != null ? view : runs.view(ref.runId());
    });
  }

  private final class Sink implements RunEventSink {

    private final TaskRef ref;
    private final CompletableFuture<RunView> done;

    Sink(TaskRef ref, CompletableFuture<RunView> done) {
      this.ref = ref;
      this.done = done;
    }

    @Override
    public void send(RunEvent event) {
      if (event instanceof RunEvent.StepAppended || event instanceof RunEvent.TextDelta || done.isDone()) {
        return;
      }
      RunView view = runs.view(ref.runId());
      if (settled(A2aTasks.state(view, ref.turn()))) {
        done.complete(view);
      }
    }

    @Override
    public void closed(Throwable failure) {
      done.complete(null);
    }
  }
}
