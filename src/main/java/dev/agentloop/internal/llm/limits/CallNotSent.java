package dev.agentloop.internal.llm.limits;

/**
 * A model call that waited for the endpoint and was then not sent, because the step it was for no longer
 * needs it: its run left its loop (stopped, to agentStuck, ended, edited) or another node took the step over.
 * Nothing was paid, so nothing is counted; the step's task is released as it is.
 */
public final class CallNotSent extends RuntimeException {

  public CallNotSent(String message) {
    super(message, null, false, false);
  }
}
