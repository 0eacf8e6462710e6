package dev.agentloop.internal.agent.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.agentloop.spi.AnswerFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An agent's answer schema: the JSON Schema (draft 2020-12) its final answer must match, a JSON object whose
 * top-level properties become the fields people review and processes route on ({@link AnswerField}). Checked
 * whole when it is read — valid JSON, valid against the JSON Schema meta-schema, of {@code "type": "object"} with
 * {@code properties}, every {@code $ref} resolvable — so that a broken schema fails a deployment or a start, never
 * a run. Immutable and thread-safe; read schemas are kept by their text, as every turn of a run asks for one.
 */
public final class AnswerSchema {

  /** The name the schema goes by where a provider wants one (OpenAI's {@code json_schema.name}). */
  public static final String NAME = "answer";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final Schema META = SCHEMAS.getSchema(
      SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
  private static final int CACHED = 256;
  private static final Map<String, AnswerSchema> READ = new ConcurrentHashMap<>();

  private final JsonNode json;
  private final Schema schema;
  private final List<AnswerField> fields;
  private final boolean strict;

  private AnswerSchema(JsonNode json, Schema schema) {
    this.json = json;
    this.schema = schema;
    this.fields = AnswerField.of(json);
    this.strict = StrictSchemaRule.allows(json);
  }

  /**
   * Reads a schema from its text.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static AnswerSchema parse(String text) {
    AnswerSchema known = READ.get(text);
    if (known != null) {
      return known;
    }
    JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    AnswerSchema read = of(json);
    if (READ.size() >= CACHED) {
      READ.clear();
    }
    READ.put(text, read);
    return read;
  }

  /** @throws IllegalArgumentException saying what is wrong with the schema */
  public static AnswerSchema of(JsonNode json) {
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("a JSON Schema is a JSON object");
    }
    List<String> invalid = describe(META.validate(json));
    if (!invalid.isEmpty()) {
      throw new IllegalArgumentException("not a valid JSON Schema: " + String.join("; ", invalid));
    }
    if (!"object".equals(json.path("type").asText()) || !json.path("properties").isObject()
        || json.get("properties").isEmpty()) {
      throw new IllegalArgumentException("an answer schema has \"type\": \"object\" and \"properties\", one per field"
          + " of the answer");
    }
    try {
      Schema compiled = SCHEMAS.getSchema(json);
      compiled.initializeValidators(); // resolves every $ref now: a dangling one fails here, not in a run
      return new AnswerSchema(json.deepCopy(), compiled);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a usable JSON Schema: " + e.getMessage());
    }
  }

  /** The schema as written. */
  public JsonNode json() {
    return json.deepCopy();
  }

  /** The top-level properties, in the schema's order: the answer's fields. */
  public List<AnswerField> fields() {
    return fields;
  }

  /** How a model is asked for the answer. */
  public AnswerFormat format() {
    return new AnswerFormat(NAME, json, strict);
  }

  /**
   * Checks an answer.
   *
   * @return one line per violation naming the field ({@code /priority: does not have a value in the enumeration
   *     ["urgent", "normal", "low"]}, {@code required property 'reply' not found}); empty when the answer is valid
   */
  public List<String> violations(JsonNode answer) {
    return describe(schema.validate(answer));
  }

  private static List<String> describe(List<Error> errors) {
    List<String> lines = new ArrayList<>();
    for (Error error : errors) {
      String path = error.getInstanceLocation().toString();
      lines.add(path.isEmpty() ? error.getMessage() : path + ": " + error.getMessage());
    }
    return lines;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof AnswerSchema schema && schema.json.equals(json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return json.toString();
  }
}
