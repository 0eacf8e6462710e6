package dev.agentloop.trace;

/** The run's head moved after the caller read it; nothing of the caller's write was applied. */
public class StaleHeadException extends RuntimeException {

  public StaleHeadException(String runId, int expectedVersion) {
    super("run " + runId + " changed since version " + expectedVersion + " was read");
  }
}
