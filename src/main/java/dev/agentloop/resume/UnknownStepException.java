package dev.agentloop.resume;

/** The run has no step with this number. */
public class UnknownStepException extends RuntimeException {

  public UnknownStepException(String message) {
    super(message);
  }
}
