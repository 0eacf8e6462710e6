package dev.agentloop.internal.worker;

/**
 * How many more steps this node can start now, whatever its own slots allow: a step that has to wait for what
 * it calls (the model endpoint's limits) would only hold its lock here, where no other node can take it, and its
 * lock would have to be kept meanwhile. So the worker takes no more than this, and the rest waits in the
 * database. Thread-safe.
 */
public interface TaskRoom {

  /** Any number: nothing but the worker's own slots limits it. */
  TaskRoom UNLIMITED = new TaskRoom() {
    @Override
    public int free() {
      return Integer.MAX_VALUE;
    }

    @Override
    public void onFree(Runnable listener) {
      // never full, so never freed
    }
  };

  /** How many more steps can start now; {@link Integer#MAX_VALUE} for any number. */
  int free();

  /** Told when there is room again after there was none. */
  void onFree(Runnable listener);
}
