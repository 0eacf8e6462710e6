package dev.agentloop.internal.evaluation;

/**
 * What a case came to: every check passed and the candidate did what was recorded ({@link #SAME}); every check passed
 * but something differs — the answer's words, a call the record did not have, a review asked anew ({@link #CHANGED});
 * a check failed, or the candidate's run could not finish ({@link #FAILED}).
 */
enum Verdict {
  SAME, CHANGED, FAILED
}
