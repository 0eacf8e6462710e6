package dev.agentloop.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a tool's JSON Schema is adapted to what every adapter can send (OpenAI's and
 * Anthropic's wires and the LangChain4j path alike), so that the schema the prompt view shows is the
 * schema the model got. References stay references, not inlined (a recursive model cannot be inlined):
 *
 * <ul>
 *   <li>{@code properties}, {@code required}, {@code description} and {@code $defs} go as written, each
 *       property and definition whole, with every {@code $ref} in it;</li>
 *   <li>{@code definitions} (older drafts) become {@code $defs}, and references to
 *       {@code #/definitions/X} become {@code #/$defs/X}, so that none dangles;</li>
 *   <li>{@code additionalProperties} is left out: LangChain4j sends it only in strict mode. AgentLoop
 *       checks every call's arguments against the tool's full schema before the tool runs, so nothing
 *       the schema forbids gets through;</li>
 *   <li>any other top-level keyword ({@code $schema}, {@code title}, {@code allOf} …) cannot travel as a
 *       tool's parameters and is left out, with a warning in the log naming it (once per tool).</li>
 * </ul>
 * Thread-safe.
 */
public final class ToolSchemas {

  private static final Logger LOG = LoggerFactory.getLogger(ToolSchemas.class);
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Set<String> KEPT = Set.of("type", "description", "properties", "required", "$defs",
      "definitions");
  /** Left out without a warning: metadata, or checked by AgentLoop itself. */
  private static final Set<String> QUIETLY_LEFT_OUT = Set.of("$schema", "$id", "title", "additionalProperties");
  private static final String OLD_DEFINITIONS = "#/definitions/";
  /** Tools already warned about: a schema is adapted on every turn, its warning is logged once. */
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private ToolSchemas() {}

  /** The schema as the model receives it. */
  public static ObjectNode forModel(String tool, JsonNode schema) {
    ObjectNode adapted = JSON.objectNode().put("type", "object");
    if (schema == null || !schema.isObject()) {
      return adapted.set("properties", JSON.objectNode());
    }
    if (schema.path("description").isTextual()) {
      adapted.set("description", schema.get("description"));
    }
    adapted.set("properties", schema.path("properties").isObject() ? refsRewritten(schema.get("properties"))
        : JSON.objectNode());
    if (schema.path("required").isArray() && !schema.get("required").isEmpty()) {
      adapted.set("required", schema.get("required").deepCopy());
    }
    ObjectNode defs = JSON.objectNode();
    for (String key : List.of("definitions", "$defs")) {
      if (schema.path(key).isObject()) {
        schema.get(key).fields().forEachRemaining(def -> defs.set(def.getKey(), refsRewritten(def.getValue())));
      }
    }
    if (!defs.isEmpty()) {
      adapted.set("$defs", defs);
    }
    List<String> leftOut = new ArrayList<>();
    schema.fieldNames().forEachRemaining(name -> {
      if (!KEPT.contains(name) && !QUIETLY_LEFT_OUT.contains(name)) {
        leftOut.add(name);
      }
    });
    if (!leftOut.isEmpty() && WARNED.add(tool + leftOut)) {
      LOG.warn("AGENTLOOP-012 the schema of tool '{}' has top-level keywords that a tool's parameters cannot carry,"
          + " sent without them (AgentLoop still checks calls against them): {}. Say in the tool's description what"
          + " they require, so that the model knows it", tool, leftOut);
    }
    return adapted;
  }

  private static JsonNode refsRewritten(JsonNode node) {
    JsonNode copy = node.deepCopy();
    rewrite(copy);
    return copy;
  }

  private static void rewrite(JsonNode node) {
    if (node.isObject()) {
      ObjectNode object = (ObjectNode) node;
      JsonNode ref = object.get("$ref");
      if (ref != null && ref.isTextual() && ref.asText().startsWith(OLD_DEFINITIONS)) {
        object.set("$ref", TextNode.valueOf("#/$defs/" + ref.asText().substring(OLD_DEFINITIONS.length())));
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
        rewrite(it.next().getValue());
      }
    } else if (node.isArray()) {
      node.forEach(ToolSchemas::rewrite);
    }
  }
}
