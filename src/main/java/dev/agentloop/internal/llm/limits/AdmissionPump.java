package dev.agentloop.internal.llm.limits;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When the {@link ModelQueue} admits calls: whenever asked (a call came, one ended), never on two threads at once
 * and once more when asked while it ran (a start that completed at once re-enters it), and when a pause or a window
 * ends, by a timer, so that waiting calls hold no thread. Thread-safe, but {@link #wakeIn} runs under the queue's
 * lock.
 */
final class AdmissionPump {

  private final ScheduledExecutorService timer;
  private final Runnable admission;
  private final AtomicInteger pumping = new AtomicInteger();
  private ScheduledFuture<?> wake;
  private long wakeAt;

  /** @param admission admits and starts what the limits allow */
  AdmissionPump(ScheduledExecutorService timer, Runnable admission) {
    this.timer = timer;
    this.admission = admission;
  }

  /** Admits and starts what the limits allow; re-entered from a start that completed at once, it loops instead. */
  void pump() {
    if (pumping.getAndIncrement() != 0) {
      return;
    }
    int missed = 1;
    do {
      admission.run();
      missed = pumping.addAndGet(-missed);
    } while (missed != 0);
  }

  /** Pumps {@code wait} nanoseconds after {@code now}, unless a wake comes sooner. Under the queue's lock. */
  void wakeIn(long now, long wait) {
    // a wake that is due (or running: this may be it) wakes no more; a later one is brought forward
    if (wake == null || wakeAt - now <= 0 || wakeAt - (now + wait) > 0) {
      if (wake != null && wakeAt - now > 0) {
        wake.cancel(false);
      }
      wakeAt = now + wait;
      wake = timer.schedule(this::pump, wait, TimeUnit.NANOSECONDS);
    }
  }

  /** Stops the timer: no wake comes any more. */
  void close() {
    timer.shutdownNow();
  }
}
