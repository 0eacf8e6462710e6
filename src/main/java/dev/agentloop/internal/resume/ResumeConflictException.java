package dev.agentloop.internal.resume;

import org.camunda.bpm.engine.BadUserRequestException;

/**
 * The run is not in a state the request fits (its head moved since the edit was made, the step is
 * superseded, the run has ended or has no answer yet); nothing was changed. Like the other refusals of
 * a person's request it is a {@link BadUserRequestException}, which Camunda logs at DEBUG when it ends a
 * command (an expected outcome, not ENGINE-16004 with a stack trace at ERROR); the API logs one line.
 */
public class ResumeConflictException extends BadUserRequestException {

  public ResumeConflictException(String message) {
    super(message);
  }

  public ResumeConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
