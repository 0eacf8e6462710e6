package dev.agentloop.internal.review;

import org.camunda.bpm.engine.BadUserRequestException;

/**
 * Another request completed the task (or changed its run) at the same moment; this completion
 * changed nothing. An expected outcome of two people, or two clicks, deciding at once: Camunda logs it
 * at DEBUG like its own bad requests.
 */
public class TaskDecidedException extends BadUserRequestException {

  public TaskDecidedException(String message, Throwable cause) {
    super(message, cause);
  }
}
