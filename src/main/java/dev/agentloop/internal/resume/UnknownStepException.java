package dev.agentloop.internal.resume;

import org.camunda.bpm.engine.BadUserRequestException;

/** The run has no step with this number. */
public class UnknownStepException extends BadUserRequestException {

  public UnknownStepException(String message) {
    super(message);
  }
}
