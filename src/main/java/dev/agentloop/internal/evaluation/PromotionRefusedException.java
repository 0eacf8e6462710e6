package dev.agentloop.internal.evaluation;

/**
 * A promotion the evaluation's state does not allow: it has not ended, a case failed or is missing, or it was promoted
 * already. The message says which, and what to do.
 */
public class PromotionRefusedException extends RuntimeException {

  public PromotionRefusedException(String message) {
    super(message);
  }
}
