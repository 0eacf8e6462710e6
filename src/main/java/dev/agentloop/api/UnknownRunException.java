package dev.agentloop.api;

/** No run with this id exists in the step store. */
public class UnknownRunException extends RuntimeException {

  public UnknownRunException(String runId) {
    super("no run with id " + runId);
  }
}
