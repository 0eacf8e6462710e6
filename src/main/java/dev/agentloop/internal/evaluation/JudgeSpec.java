package dev.agentloop.internal.evaluation;

/**
 * The judge of an evaluation: a model scores each candidate answer against the reference (the recorded answer, or a
 * data-set case's {@code answer}) by a rubric, from 0 to 1; a case needs {@link #threshold}. Immutable.
 *
 * @param rubric what a good answer is, in the words the judge reads
 * @param threshold the score a case needs; {@code null}: {@code agentloop.evaluation.judge-threshold}
 * @param model the model to judge with, by name, on the configured provider's endpoint; {@code null}: the configured
 *     model itself
 */
public record JudgeSpec(String rubric, Double threshold, String model) {

  public static final int MAX_RUBRIC_CHARS = 4000;

  public JudgeSpec {
    if (rubric == null || rubric.isBlank()) {
      throw new IllegalArgumentException("judge.rubric must say what a good answer is, was empty");
    }
    if (rubric.length() > MAX_RUBRIC_CHARS) {
      throw new IllegalArgumentException("judge.rubric may have at most " + MAX_RUBRIC_CHARS + " characters, had "
          + rubric.length());
    }
    if (threshold != null && (threshold < 0 || threshold > 1 || Double.isNaN(threshold))) {
      throw new IllegalArgumentException("judge.threshold must be between 0 and 1, was " + threshold);
    }
    if (model != null && (model.isBlank() || model.length() > 200)) {
      throw new IllegalArgumentException("judge.model names a model of the configured provider, or is left out; was '"
          + model + "'");
    }
  }

  /** This judge with the threshold given, or this default where none is. */
  JudgeSpec orThreshold(double fallback) {
    return threshold != null ? this : new JudgeSpec(rubric, fallback, model);
  }
}
