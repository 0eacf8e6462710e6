package dev.agentloop.internal.evaluation;

/** There is no evaluation of this id (or none the caller may read, which is told the same way). */
public class UnknownEvaluationException extends RuntimeException {

  public UnknownEvaluationException(String evaluationId) {
    super("there is no evaluation '" + evaluationId + "'");
  }
}
