package dev.agentloop.internal.trace.retention;

/** The run still runs, so its trace is still being written and cannot be deleted. */
public class RunNotFinishedException extends RuntimeException {

  public RunNotFinishedException(String runId) {
    super("run " + runId + " has not finished: its trace can be deleted once it has ended (stop it first)");
  }
}
