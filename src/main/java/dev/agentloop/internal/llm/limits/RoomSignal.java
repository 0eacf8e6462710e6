package dev.agentloop.internal.llm.limits;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

/**
 * Tells the {@link ModelQueue}'s listeners (the worker, which then takes steps again) when there is room again
 * after there was none: once per time, not on every call that ends. Its flag changes under the queue's lock; the
 * listeners are told outside it.
 */
final class RoomSignal {

  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final IntSupplier room;
  private boolean full;

  /** @param room how many more calls could start now (asked under the queue's lock) */
  RoomSignal(IntSupplier room) {
    this.room = room;
  }

  void onRoom(Runnable listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Notes whether there is no room left now. Under the lock. */
  void noteFull() {
    full |= room.getAsInt() == 0;
  }

  /** Whether there is room again after there was none; true once per time. Under the lock. */
  boolean roomAgain() {
    boolean again = full && room.getAsInt() > 0;
    full &= !again;
    return again;
  }

  /** Tells the listeners if {@link #roomAgain} said so. Outside the lock. */
  void tell(boolean again) {
    if (again) {
      listeners.forEach(Runnable::run);
    }
  }
}
