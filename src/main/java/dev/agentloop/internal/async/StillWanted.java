package dev.agentloop.internal.async;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Whether the work the current thread prepares is still wanted when it is finally done: the worker says so for
 * the step it hands to a handler ({@link #during}), and a call that waits before it goes out (a model call
 * queued for its endpoint) asks it before it is sent ({@link #current}), so that a step whose run was stopped
 * meanwhile, or that another node took over, sends and pays for nothing. A thread-local, because the call is
 * made deep inside the handler, on the thread the worker runs it on; capture it there, not later on another
 * thread. Thread-safe.
 */
public final class StillWanted {

  private static final BooleanSupplier ALWAYS = () -> true;
  private static final ThreadLocal<BooleanSupplier> CURRENT = new ThreadLocal<>();

  private StillWanted() {}

  /** Runs {@code work} with {@code check} as the current thread's answer, and restores the one before. */
  public static <T> T during(BooleanSupplier check, Supplier<T> work) {
    Objects.requireNonNull(check, "check");
    BooleanSupplier before = CURRENT.get();
    CURRENT.set(check);
    try {
      return work.get();
    } finally {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    }
  }

  /** The check of the work this thread prepares; one that always says yes outside {@link #during}. */
  public static BooleanSupplier current() {
    BooleanSupplier check = CURRENT.get();
    return check == null ? ALWAYS : check;
  }
}
