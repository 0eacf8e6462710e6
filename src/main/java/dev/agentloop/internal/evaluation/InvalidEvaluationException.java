package dev.agentloop.internal.evaluation;

/** An evaluation refused before any case runs, with what is wrong in words: its cases, its candidate, its judge. */
public class InvalidEvaluationException extends RuntimeException {

  public InvalidEvaluationException(String message) {
    super(message);
  }

  public InvalidEvaluationException(String message, Throwable cause) {
    super(message, cause);
  }
}
