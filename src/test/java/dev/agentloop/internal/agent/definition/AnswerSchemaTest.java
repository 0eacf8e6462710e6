package dev.agentloop.internal.agent.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.definition.AnswerField.Kind;
import org.junit.jupiter.api.Test;

/** What an answer schema is made of, what it refuses, and when a provider may hold a model to it strictly. */
class AnswerSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TRIAGE = """
      {"type": "object", "properties": {
        "category": {"type": "string", "title": "Category", "description": "what it is about",
                     "enum": ["refund", "defect"]},
        "days": {"type": "integer"},
        "score": {"type": "number"},
        "vip": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "order-id": {"type": "string"}},
       "required": ["category", "days", "score", "vip", "tags", "order-id"], "additionalProperties": false}
      """;

  @Test
  void should_make_a_field_of_each_top_level_property_by_its_kind() {
    AnswerSchema schema = AnswerSchema.parse(TRIAGE);

    assertThat(schema.fields()).extracting(AnswerField::name, AnswerField::kind)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("category", Kind.CHOICE),
            org.assertj.core.groups.Tuple.tuple("days", Kind.NUMBER),
            org.assertj.core.groups.Tuple.tuple("score", Kind.NUMBER),
            org.assertj.core.groups.Tuple.tuple("vip", Kind.FLAG),
            org.assertj.core.groups.Tuple.tuple("tags", Kind.JSON),
            org.assertj.core.groups.Tuple.tuple("order-id", Kind.TEXT));
    AnswerField category = schema.fields().get(0);
    assertThat(category.label()).isEqualTo("Category — what it is about");
    assertThat(category.variable()).isEqualTo("answer_category");
    assertThat(schema.fields().get(1).whole()).isTrue();
    assertThat(schema.fields().get(2).whole()).isFalse();
    assertThat(schema.fields().get(5).variable()).as("no identifier, no variable of its own").isNull();
  }

  @Test
  void should_name_the_field_of_each_violation() throws Exception {
    AnswerSchema schema = AnswerSchema.parse(TRIAGE);

    assertThat(schema.violations(JSON.readTree("{\"category\": \"other\", \"days\": \"2\", \"score\": 1,"
        + " \"vip\": true, \"tags\": [], \"order-id\": \"A\"}")))
        .containsExactly("/category: does not have a value in the enumeration [\"refund\", \"defect\"]",
            "/days: string found, integer expected");
    assertThat(schema.violations(JSON.readTree("{}"))).contains("required property 'category' not found");
  }

  @Test
  void should_allow_strict_mode_only_for_closed_objects_with_every_property_required() {
    assertThat(AnswerSchema.parse(TRIAGE).format().strict()).isTrue();
    // an optional property
    assertThat(AnswerSchema.parse(TRIAGE.replace(", \"order-id\"]", "]")).format().strict()).isFalse();
    // an open object
    assertThat(AnswerSchema.parse(TRIAGE.replace("\"additionalProperties\": false", "\"additionalProperties\": true"))
        .format().strict()).isFalse();
    // a keyword strict mode does not know, deep inside
    assertThat(AnswerSchema.parse(TRIAGE.replace("\"items\": {\"type\": \"string\"}",
        "\"items\": {\"type\": \"string\", \"minLength\": 2}")).format().strict()).isFalse();
    // an open object inside a closed one
    assertThat(AnswerSchema.parse(TRIAGE.replace("\"items\": {\"type\": \"string\"}",
        "\"items\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}")).format().strict())
        .isFalse();
  }

  @Test
  void should_refuse_what_is_no_answer_schema_saying_why() {
    assertThatThrownBy(() -> AnswerSchema.parse("{\"type\": \"object\""))
        .hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> AnswerSchema.parse("[]")).hasMessage("a JSON Schema is a JSON object");
    assertThatThrownBy(() -> AnswerSchema.parse("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": 3}}}"))
        .hasMessageStartingWith("not a valid JSON Schema: /properties/a/type:");
    assertThatThrownBy(() -> AnswerSchema.parse("{\"type\": \"object\"}"))
        .hasMessageStartingWith("an answer schema has \"type\": \"object\" and \"properties\"");
    assertThatThrownBy(() -> AnswerSchema.parse("{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\":"
        + " \"#/$defs/Nowhere\"}}}")).hasMessageStartingWith("not a usable JSON Schema: ");
  }
}
