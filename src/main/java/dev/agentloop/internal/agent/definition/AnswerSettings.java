package dev.agentloop.internal.agent.definition;

/**
 * What an agent's final answer must be. Immutable.
 *
 * @param schema the JSON Schema the answer must match; {@code null}: the answer is text, as it always was
 * @param maxRepairs how often an answer that breaks the schema goes back to the model with what is wrong
 *     (each a model call of the run's budget) before the run leaves its loop for a person
 */
public record AnswerSettings(AnswerSchema schema, int maxRepairs) {

  /** Answers are text. */
  public static final AnswerSettings TEXT = new AnswerSettings(null, 2);

  public AnswerSettings {
    if (maxRepairs < 0) {
      throw new IllegalArgumentException("maxRepairs must be 0 or more, was " + maxRepairs);
    }
  }

  /** Whether answers are fields. */
  public boolean hasSchema() {
    return schema != null;
  }
}
