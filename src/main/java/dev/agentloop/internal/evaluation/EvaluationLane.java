package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.async.AgentLoopThreads;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The evaluations' own lane on this node: one thread, and at most {@code casesAtOnce} cases under way at once, of all
 * evaluations together, in the order they were started. A case's runs take the same worker and model as people's
 * runs; few at a time, they never crowd people's runs out, however many cases wait. The thread looks at its cases
 * soon after one moved and less often (up to {@code pollInterval}) while they wait on the model, so that it finds a
 * review to answer wherever in the cluster the step that opened it ran. A case's checks (the judge's calls) hold its
 * place until they are done. Thread-safe: everything runs on the lane's thread.
 */
class EvaluationLane implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EvaluationLane.class);
  private static final long FIRST_LOOK_MILLIS = 5;
  private static final Duration HEARTBEAT = Duration.ofSeconds(10);

  private final ScheduledExecutorService thread;
  private final EvaluationSettings settings;
  private final CaseEnds ends;
  private final Deque<Queued> queue = new ArrayDeque<>();
  private final List<CaseRun> running = new ArrayList<>();
  private final Map<String, Integer> unfinished = new HashMap<>();
  private int finishing;
  private long delayMillis = FIRST_LOOK_MILLIS;
  private long lastHeartbeat;
  private ScheduledFuture<?> next;

  EvaluationLane(EvaluationSettings settings, CaseEnds ends, ClassLoader classLoader) {
    this.settings = settings;
    this.ends = ends;
    this.thread = Executors.newSingleThreadScheduledExecutor(new AgentLoopThreads("agentloop-evaluation-", classLoader));
  }

  /** Queues an evaluation's cases behind those of the evaluations before it. */
  void submit(CaseRun.Evaluation evaluation, List<CaseRow> cases) {
    thread.execute(() -> {
      queue.add(new Queued(evaluation, new ArrayDeque<>(cases), cases.size()));
      unfinished.put(evaluation.id(), cases.size());
      look();
    });
  }

  /** Runs the housekeeping on the lane's thread, now and every hour; a failure is logged and tried the next hour. */
  void everyHour(Runnable housekeeping) {
    thread.scheduleWithFixedDelay(() -> {
      try {
        housekeeping.run();
      } catch (RuntimeException e) {
        LOG.warn("AGENTLOOP-046 the evaluations' housekeeping failed: {}; it runs again within the hour, check the"
            + " database if it keeps failing", e.toString(), e);
      }
    }, 0, 1, TimeUnit.HOURS);
  }

  /** The evaluations this lane runs now. */
  private List<String> active() {
    return List.copyOf(unfinished.keySet());
  }

  private void look() {
    if (next != null) {
      next.cancel(false);
      next = null;
    }
    boolean moved = fill();
    for (CaseRun run : List.copyOf(running)) {
      moved |= advance(run);
    }
    heartbeat();
    if (!running.isEmpty() || !queue.isEmpty()) {
      delayMillis = moved ? FIRST_LOOK_MILLIS : Math.min(delayMillis * 2, settings.pollInterval().toMillis());
      next = thread.schedule(this::look, delayMillis, TimeUnit.MILLISECONDS);
    }
  }

  private boolean fill() {
    boolean started = false;
    while (running.size() + finishing < settings.casesAtOnce() && !queue.isEmpty()) {
      Queued head = queue.peek();
      if (head.cases().size() == head.total()) {
        ends.started(head.evaluation().id());
      }
      CaseRow row = head.cases().poll();
      if (head.cases().isEmpty()) {
        queue.poll();
      }
      running.add(new CaseRun(row, head.evaluation()));
      started = true;
    }
    return started;
  }

  private boolean advance(CaseRun run) {
    CaseRun.Progress progress;
    try {
      progress = run.advance(ends.player(), ClockUtil.getCurrentTime().toInstant());
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-801 case {} of evaluation {} failed: {}; it is reported as failed", run.caseNo(),
          run.evaluationId(), e.toString(), e);
      running.remove(run);
      ended(run, ends.failed(run, e));
      return true;
    }
    if (progress == CaseRun.Progress.ENDED) {
      running.remove(run);
      finishing++;
      ends.finish(run).whenComplete((done, failure) -> thread.execute(() -> {
        finishing--;
        ended(run, failure == null ? done : ends.failed(run, failure));
        look();
      }));
    }
    return progress != CaseRun.Progress.WAITING;
  }

  private void ended(CaseRun run, boolean stored) {
    String evaluation = run.evaluationId();
    int left = unfinished.merge(evaluation, -1, Integer::sum);
    if (left <= 0) {
      unfinished.remove(evaluation);
      ends.evaluationDone(evaluation);
    }
  }

  private void heartbeat() {
    long now = System.nanoTime();
    if (now - lastHeartbeat >= HEARTBEAT.toNanos()) {
      lastHeartbeat = now;
      ends.heartbeat(active());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }

  /** An evaluation's cases not started yet. */
  private record Queued(CaseRun.Evaluation evaluation, Deque<CaseRow> cases, int total) {}
}
