package dev.agentloop.internal.agent.definition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One top-level property of an answer schema: a field a reviewer sees and edits, and a process variable
 * {@code answer_<name>} a gateway reads. Immutable.
 *
 * @param label what a person reads: the property's {@code title}, else its name, with its {@code description}
 * @param kind how a form shows and reads it
 * @param choices the values of an {@code enum}, as written; empty for other kinds
 * @param whole for a {@link Kind#NUMBER}: whether it is an {@code integer}
 */
public record AnswerField(String name, String label, Kind kind, List<JsonNode> choices, boolean required,
    boolean whole) {

  /** How a field is shown and read back: by the form field that fits its type. */
  public enum Kind {
    /** A string: a text area. */
    TEXT,
    /** A number or an integer: a number field. */
    NUMBER,
    /** One of the values of an {@code enum}: a select. */
    CHOICE,
    /** A boolean: a checkbox. */
    FLAG,
    /** Anything else (an object, an array, several types): its JSON in a text area. */
    JSON
  }

  /** What a variable name may hold of a property's name: a gateway's expression must be able to name it. */
  private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Set<String> NUMBERS = Set.of("number", "integer");

  public AnswerField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(kind, "kind");
    choices = List.copyOf(choices);
  }

  /** The process variable that holds the field ({@code answer_category}), or {@code null} where none can. */
  public String variable() {
    return VARIABLE.matcher(name).matches() ? ReactAgentProcess.ANSWER_FIELD_PREFIX + name : null;
  }

  static List<AnswerField> of(JsonNode schema) {
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(name -> required.add(name.asText()));
    List<AnswerField> fields = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> property = it.next();
      fields.add(field(property.getKey(), property.getValue(), required.contains(property.getKey())));
    }
    return List.copyOf(fields);
  }

  private static AnswerField field(String name, JsonNode property, boolean required) {
    String title = property.path("title").isTextual() ? property.get("title").asText() : name;
    String label = property.path("description").isTextual() ? title + " — " + property.get("description").asText()
        : title;
    List<JsonNode> choices = new ArrayList<>();
    property.path("enum").forEach(choices::add);
    String type = property.path("type").asText("");
    Kind kind = !choices.isEmpty() ? Kind.CHOICE : "string".equals(type) ? Kind.TEXT
        : NUMBERS.contains(type) ? Kind.NUMBER : "boolean".equals(type) ? Kind.FLAG : Kind.JSON;
    return new AnswerField(name, label, kind, choices, required, "integer".equals(type));
  }
}
