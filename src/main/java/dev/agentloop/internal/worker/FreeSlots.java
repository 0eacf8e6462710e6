package dev.agentloop.internal.worker;

import java.util.function.IntSupplier;

/**
 * How many more tasks the worker may take now: as many as its {@code maxConcurrency} slots allow, and no more than
 * can start at once ({@link TaskRoom}: the model endpoint's limits, less the tasks taken that have not yet asked
 * for their model call), so that the rest waits in the database, where any node can take it, and not here under a
 * lock that must be kept. The fetcher and a run's start both ask it. Thread-safe.
 */
final class FreeSlots implements IntSupplier {

  private final WorkerOptions settings;
  private final InFlightTasks inFlight;
  private final TaskRoom room;
  private final TaskDispatcher<?> dispatcher;

  FreeSlots(WorkerOptions settings, InFlightTasks inFlight, TaskRoom room, TaskDispatcher<?> dispatcher) {
    this.settings = settings;
    this.inFlight = inFlight;
    this.room = room;
    this.dispatcher = dispatcher;
  }

  @Override
  public int getAsInt() {
    int slots = settings.maxConcurrency() - inFlight.count();
    int startable = room.free();
    return startable == Integer.MAX_VALUE ? slots : Math.min(slots, startable - dispatcher.preparing());
  }
}
