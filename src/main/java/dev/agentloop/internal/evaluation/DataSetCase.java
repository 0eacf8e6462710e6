package dev.agentloop.internal.evaluation;

import java.util.List;

/**
 * A case of a data set: a question (and, for a conversation, the questions after it, in order) with what its answer
 * is expected to be. No run was recorded for it: its calls of tools without side effects run or are refused as the
 * evaluation chooses, and every review is new to it. Immutable.
 */
public record DataSetCase(String question, List<String> followUps, Expectations expect) {

  public static final int MAX_QUESTION_CHARS = 20_000;

  public DataSetCase {
    followUps = followUps == null ? List.of() : List.copyOf(followUps);
    expect = expect == null ? Expectations.NONE : expect;
    requireQuestion("question", question);
    for (int i = 0; i < followUps.size(); i++) {
      requireQuestion("followUps[" + i + "]", followUps.get(i));
    }
  }

  private static void requireQuestion(String name, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(name + " must be a question, was empty");
    }
    if (text.length() > MAX_QUESTION_CHARS) {
      throw new IllegalArgumentException(name + " may have at most " + MAX_QUESTION_CHARS + " characters, had "
          + text.length());
    }
  }
}
