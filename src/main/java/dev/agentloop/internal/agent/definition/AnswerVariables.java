package dev.agentloop.internal.agent.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.ProcessVariable;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.HashMap;
import java.util.Map;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * An answer's fields as the process variables a business process routes on: {@code answerData}, the whole object
 * as Spin JSON, and one variable per top-level field of the schema, {@code answer_<name>}: a string, a number
 * ({@code Long} or {@code Double}), a boolean, Spin JSON for an object or a list, {@code null} where the answer has
 * no such field — so that every field the schema names is there to read, whichever answer set them last.
 */
public final class AnswerVariables {

  private AnswerVariables() {}

  /** @param data an answer's fields, valid against {@code schema} */
  public static Map<String, Object> of(AnswerSchema schema, JsonNode data) {
    Map<String, Object> variables = new HashMap<>();
    variables.put(ReactAgentProcess.ANSWER_DATA, SpinValues.jsonValue(data.toString()).create());
    for (AnswerField field : schema.fields()) {
      if (field.variable() != null) {
        variables.put(field.variable(), value(data.get(field.name())));
      }
    }
    return variables;
  }

  private static Object value(JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isTextual()) {
      return ProcessVariable.storable(value.asText()); // a long reply outgrows Camunda's string column
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.asLong();
    }
    if (value.isNumber()) {
      return value.asDouble();
    }
    return SpinValues.jsonValue(value.toString()).create();
  }
}
