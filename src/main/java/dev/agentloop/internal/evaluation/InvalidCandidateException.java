package dev.agentloop.internal.evaluation;

/** A candidate refused before any case runs: it does not parse, is no agent of the key, or breaks a rule. */
public class InvalidCandidateException extends InvalidEvaluationException {

  public InvalidCandidateException(String message) {
    super(message);
  }

  public InvalidCandidateException(String message, Throwable cause) {
    super(message, cause);
  }
}
