package dev.agentloop.internal.llm.limits;

import java.util.function.BooleanSupplier;

/**
 * What the {@link ModelQueue} knows of a call.
 *
 * @param runId the run it is for, whose place it takes; {@code null}: a place of its own
 * @param tokens the prompt's tokens as estimated, counted against a tokens-per-minute limit until the reply says
 *     what the call cost; 0 when unknown
 * @param stillWanted asked before a call that waited is sent; {@code null}: always
 */
public record CallTicket(String runId, long tokens, BooleanSupplier stillWanted) {

  public CallTicket {
    if (tokens < 0) {
      throw new IllegalArgumentException("tokens must not be negative, was " + tokens);
    }
    stillWanted = stillWanted == null ? () -> true : stillWanted;
  }

  /** Handed to a call once it is admitted. */
  public interface Admission {

    /** What the reply says the call cost, in tokens; corrects the estimate counted against tokens per minute. */
    void used(long tokens);
  }
}
