package dev.agentloop.internal.trace;

import org.camunda.bpm.engine.OptimisticLockingException;

/**
 * The run's head moved after the caller read it; nothing of the caller's write was applied. An optimistic lock
 * on the run's trace, and so one to Camunda too: a worker's result or a person's decision that lost such a race
 * rolls back its whole command, which Camunda then logs at DEBUG, as its own optimistic locks, not as an
 * {@code ENGINE-16004} error with a stack trace.
 */
public class StaleHeadException extends OptimisticLockingException {

  public StaleHeadException(String runId, int expectedVersion) {
    super("run " + runId + " changed since version " + expectedVersion + " was read");
  }
}
