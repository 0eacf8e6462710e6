package dev.agentloop.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The form a model's final answer must take: a JSON object that matches {@link #schema()}, the agent's answer
 * schema. An adapter sends it the way its provider enforces it (OpenAI's {@code response_format}, a forced tool
 * for Anthropic, LangChain4j's {@code ResponseFormat}); AgentLoop checks every answer against the schema all the
 * same, so a provider that ignores it costs a repair, never a wrong answer. Immutable.
 *
 * @param name a name for the schema where a provider wants one ({@code [A-Za-z0-9_-]{1,64}})
 * @param schema a JSON Schema of {@code "type": "object"}
 * @param strict whether the schema keeps OpenAI's rules for strict structured outputs (every object closed with
 *     {@code "additionalProperties": false}, every property required, no keyword strict mode lacks): only then
 *     may an adapter ask its provider to hold the model to the schema strictly
 */
public record AnswerFormat(String name, JsonNode schema, boolean strict) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public AnswerFormat {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("an answer format's name must match " + NAME + ", was '" + name + "'");
    }
    Objects.requireNonNull(schema, "schema");
    if (!schema.isObject() || !"object".equals(schema.path("type").asText())) {
      throw new IllegalArgumentException("an answer format's schema is a JSON Schema of \"type\": \"object\"");
    }
    schema = schema.deepCopy();
  }

  /**
   * What a model is told to do with its final answer, in its instructions: every provider reads them, also one
   * that ignores the request's format.
   */
  public String instruction() {
    return "When you give your final answer, give it as one JSON object that matches this JSON Schema, and nothing"
        + " else: " + schema;
  }
}
