package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.api.RunView;

/** A run's answer fields, the one place the evaluations read them. */
final class AnswerFields {

  private AnswerFields() {}

  /** The newest answer's fields, or {@code null} where the agent has no answer schema. */
  static JsonNode of(RunView run) {
    // ANSWERS (structured answers): once runs have answer fields, this is run.answerData(); until then no run has any
    return null;
  }
}
