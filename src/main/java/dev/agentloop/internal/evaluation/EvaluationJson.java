package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one JSON mapping of what the evaluations' tables keep as JSON: the choices, a data-set case, a case's result, the
 * summary. Records as they are, by their components. Thread-safe.
 */
final class EvaluationJson {

  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private EvaluationJson() {}

  static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot read a stored " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  /** The choices an evaluation was started with. */
  record Choices(ReplayChoices replay, JudgeSpec judge) {}
}
