package dev.agentloop.resume;

/** The run is not in a state the request fits (its head moved since the edit was made, the step is superseded, the run has ended or has no answer yet); nothing was changed. */
public class ResumeConflictException extends RuntimeException {

  public ResumeConflictException(String message) {
    super(message);
  }

  public ResumeConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
