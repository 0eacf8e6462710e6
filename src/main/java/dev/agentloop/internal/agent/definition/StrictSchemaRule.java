package dev.agentloop.internal.agent.definition;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Whether a schema keeps the rules of OpenAI's strict structured outputs, so that a provider may be asked to hold a
 * model to it strictly: only the keywords strict mode knows (a positive list), every object closed with
 * {@code "additionalProperties": false} and listing all its properties as required, and a root that is an object,
 * not a choice. A schema that breaks a rule is sent without strict: AgentLoop validates every answer itself.
 */
final class StrictSchemaRule {

  /** The keywords of strict mode, as OpenAI documents them, and notes that do not constrain. */
  private static final Set<String> KEYWORDS = Set.of("type", "properties", "required", "additionalProperties",
      "items", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "description", "title", "$schema", "$id",
      "$comment", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
      "minItems", "maxItems");
  /** Keywords whose value is a map of schemas by name. */
  private static final Set<String> SCHEMA_MAPS = Set.of("properties", "$defs", "definitions");

  private StrictSchemaRule() {}

  static boolean allows(JsonNode root) {
    return !root.has("anyOf") && allowsSchema(root);
  }

  private static boolean allowsSchema(JsonNode schema) {
    if (!schema.isObject()) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = schema.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> keyword = it.next();
      if (!KEYWORDS.contains(keyword.getKey()) || !allowsValue(keyword.getKey(), keyword.getValue())) {
        return false;
      }
    }
    return !schema.has("properties") || closed(schema);
  }

  private static boolean allowsValue(String keyword, JsonNode value) {
    if (SCHEMA_MAPS.contains(keyword)) {
      for (JsonNode nested : value) {
        if (!allowsSchema(nested)) {
          return false;
        }
      }
      return true;
    }
    if ("items".equals(keyword)) {
      return allowsSchema(value);
    }
    if ("anyOf".equals(keyword)) {
      for (JsonNode option : value) {
        if (!allowsSchema(option)) {
          return false;
        }
      }
    }
    return true;
  }

  /** An object that admits no other properties and requires every one it has. */
  private static boolean closed(JsonNode schema) {
    if (!schema.path("additionalProperties").isBoolean() || schema.get("additionalProperties").asBoolean()) {
      return false;
    }
    Set<String> required = new java.util.HashSet<>();
    schema.path("required").forEach(name -> required.add(name.asText()));
    for (Iterator<String> names = schema.get("properties").fieldNames(); names.hasNext(); ) {
      if (!required.contains(names.next())) {
        return false;
      }
    }
    return true;
  }
}
