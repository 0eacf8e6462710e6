package dev.agentloop.internal.llm;

import static dev.agentloop.internal.llm.ModelCalls.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.ToolSchemas;
import org.junit.jupiter.api.Test;

class ToolSchemasTest {

  @Test
  void should_keep_references_and_move_old_definitions_to_defs_wherever_they_are_referenced() {
    // given references in nested anyOf and items, to both $defs and definitions
    JsonNode schema = json("""
        {"type": "object",
         "properties": {"items": {"type": "array", "items": {"anyOf": [{"$ref": "#/definitions/A"},
                                                                      {"$ref": "#/$defs/B"}]}}},
         "definitions": {"A": {"type": "object", "properties": {"b": {"$ref": "#/definitions/B"}}}},
         "$defs": {"B": {"type": "string"}}}
        """);

    // when
    JsonNode adapted = ToolSchemas.forModel("t", schema);

    // then no reference dangles
    assertThat(adapted.at("/properties/items/items/anyOf/0/$ref").asText()).isEqualTo("#/$defs/A");
    assertThat(adapted.at("/properties/items/items/anyOf/1/$ref").asText()).isEqualTo("#/$defs/B");
    assertThat(adapted.at("/$defs/A/properties/b/$ref").asText()).isEqualTo("#/$defs/B");
    assertThat(adapted.at("/$defs/B/type").asText()).isEqualTo("string");
    assertThat(adapted.has("definitions")).isFalse();
    assertThat(schema.at("/definitions/A/properties/b/$ref").asText()).as("the tool's own schema is untouched")
        .isEqualTo("#/definitions/B");
  }

  @Test
  void should_leave_out_only_what_a_tools_parameters_cannot_carry() {
    // when
    JsonNode adapted = ToolSchemas.forModel("t", json("""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "T", "description": "d",
         "type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
         "additionalProperties": false, "allOf": [{"required": ["a"]}]}
        """));

    // then
    assertThat(adapted).isEqualTo(json("""
        {"type": "object", "description": "d", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
        """));
  }

  @Test
  void should_offer_a_tool_without_a_usable_schema_as_taking_an_empty_object() {
    assertThat(ToolSchemas.forModel("t", null)).isEqualTo(json("{\"type\": \"object\", \"properties\": {}}"));
    assertThat(ToolSchemas.forModel("t", json("\"not a schema\""))).isEqualTo(
        json("{\"type\": \"object\", \"properties\": {}}"));
  }
}
