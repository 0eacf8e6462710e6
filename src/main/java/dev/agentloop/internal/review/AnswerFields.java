package dev.agentloop.internal.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.definition.AnswerField;
import dev.agentloop.internal.agent.definition.AnswerSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * An answer's fields in the answer review. Camunda Forms are static and Tasklist 7.24 keeps a form whose dynamic
 * list was edited invalid, so the form has {@value #SLOTS} numbered slots, and each slot one field per kind, shown
 * only for the kind of the property it holds ({@code answerKind1} …, labelled by {@code answerLabel1} …): a text
 * area for a string ({@code answerText1}), a number field ({@code answerNumber1}), a select of the enum's values
 * ({@code answerChoice1}, options {@code answerOptions1}), a checkbox ({@code answerFlag1}), and the JSON of anything
 * else ({@code answerJson1}). API clients may instead send the whole object as {@code answerFields}. What comes back is
 * read by the field's kind, compared with the answer, and checked against the schema again: the reviewer gets the
 * validator's message and the task stays open.
 */
final class AnswerFields {

  static final int SLOTS = 12;
  /**
   * An API client's edit: the whole object. Not {@code answerData}, the run's variable: a review's fields are the
   * task's own.
   */
  static final String DATA = "answerFields";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AnswerFields() {}

  static void prepare(ReviewTask task, AnswerSchema schema, JsonNode data) {
    List<AnswerField> fields = schema.fields();
    task.put(DATA, null); // an API client's whole object lands beside the fields, not in the run's variable
    task.put("answerFieldsNote", fields.size() <= SLOTS ? "" : "The answer has " + fields.size() + " fields; the"
        + " form shows the first " + SLOTS + ". The others are edited by sending the whole answerFields through the API.");
    for (int slot = 1; slot <= SLOTS; slot++) {
      AnswerField field = slot <= fields.size() ? fields.get(slot - 1) : null;
      task.put("answerLabel" + slot, field == null ? null : field.label() + (field.required() ? "" : " (optional)"));
      task.put("answerKind" + slot, field == null ? null : field.kind().name().toLowerCase(Locale.ROOT));
      JsonNode value = field == null ? null : data.get(field.name());
      for (AnswerField.Kind kind : AnswerField.Kind.values()) {
        task.put(key(kind, slot), field != null && field.kind() == kind ? shown(kind, value) : null);
      }
      // an empty list where the slot holds no choice: a select without options is hidden, never broken
      task.put("answerOptions" + slot, options(field != null && field.kind() == AnswerField.Kind.CHOICE
          ? field.choices() : List.of()));
    }
  }

  /**
   * The fields as the reviewer left them: the answer's own where nothing changed.
   *
   * @throws ReviewException when a field cannot be read, or the fields break the schema; nothing is changed
   */
  static ObjectNode read(ReviewTask task, AnswerSchema schema, JsonNode data) {
    ObjectNode edited = task.hasValue(DATA) ? object(task.text(DATA)) : formFields(task, schema, data);
    List<String> violations = schema.violations(edited);
    if (!violations.isEmpty()) {
      throw new ReviewException("the answer's fields do not match the answer schema: " + String.join("; ", violations));
    }
    return edited;
  }

  /** The names of the fields whose values differ, in the schema's order. */
  static List<String> changed(AnswerSchema schema, JsonNode before, JsonNode after) {
    List<String> changed = new ArrayList<>();
    for (AnswerField field : schema.fields()) {
      if (!same(before.get(field.name()), after.get(field.name()))) {
        changed.add(field.name());
      }
    }
    return changed;
  }

  private static ObjectNode formFields(ReviewTask task, AnswerSchema schema, JsonNode data) {
    ObjectNode edited = data.deepCopy();
    List<AnswerField> fields = schema.fields();
    for (int slot = 1; slot <= Math.min(SLOTS, fields.size()); slot++) {
      AnswerField field = fields.get(slot - 1);
      String key = key(field.kind(), slot);
      JsonNode before = data.get(field.name());
      Object shown = shown(field.kind(), before);
      if (!task.hasValue(key) || (shown != null && shown.toString().strip().equals(task.text(key)))) {
        continue; // not sent, or sent as shown: the field stays as it was (an absent one absent)
      }
      JsonNode value = value(field, task.value(key), task.text(key));
      if (value == null) {
        edited.remove(field.name());
      } else if (!same(before, value)) {
        edited.set(field.name(), value);
      }
    }
    return edited;
  }

  /** A field's value as submitted, read by its kind; {@code null}: left empty. */
  private static JsonNode value(AnswerField field, Object raw, String text) {
    return switch (field.kind()) {
      case TEXT -> raw == null ? null : NODES.textNode(raw.toString());
      case FLAG -> NODES.booleanNode(raw instanceof Boolean flag ? flag : Boolean.parseBoolean(text));
      case NUMBER -> text.isEmpty() ? null : number(field, text);
      case CHOICE -> text.isEmpty() ? null : field.choices().stream().filter(choice -> shownText(choice).equals(text))
          .findFirst().orElseThrow(() -> new ReviewException("'" + text + "' is not a value of field '" + field.name()
              + "'; choose one of " + field.choices().stream().map(AnswerFields::shownText).toList()));
      case JSON -> text.isEmpty() ? null : json(field, text);
    };
  }

  private static JsonNode number(AnswerField field, String text) {
    try {
      java.math.BigDecimal number = new java.math.BigDecimal(text);
      if (field.whole()) {
        return NODES.numberNode(number.toBigIntegerExact());
      }
      return NODES.numberNode(number);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new ReviewException("field '" + field.name() + "' takes " + (field.whole() ? "a whole number" : "a number")
          + ", not '" + text + "'");
    }
  }

  private static JsonNode json(AnswerField field, String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ReviewException("field '" + field.name() + "' holds JSON, and '" + text + "' is none: "
          + e.getOriginalMessage());
    }
  }

  private static ObjectNode object(String text) {
    try {
      JsonNode json = JSON.readTree(text);
      if (json instanceof ObjectNode object) {
        return object;
      }
    } catch (JsonProcessingException e) {
      // said below
    }
    throw new ReviewException(DATA + " must be the answer's fields as one JSON object");
  }

  /** Equal values, numbers by their value: 3 and 3.0 are one number, as the schema sees them. */
  private static boolean same(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.equals(b);
  }

  private static String key(AnswerField.Kind kind, int slot) {
    String name = kind.name();
    return "answer" + name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT) + slot;
  }

  /** What the slot's field shows for a value; {@code null} where it is empty. */
  private static Object shown(AnswerField.Kind kind, JsonNode value) {
    if (value == null || value.isNull()) {
      return kind == AnswerField.Kind.FLAG ? Boolean.FALSE : kind == AnswerField.Kind.NUMBER ? null : "";
    }
    return switch (kind) {
      case TEXT, CHOICE -> shownText(value);
      case FLAG -> value.asBoolean();
      case NUMBER -> value.isIntegralNumber() ? (Object) value.asLong() : (Object) value.asDouble();
      case JSON -> value.toPrettyString();
    };
  }

  private static String shownText(JsonNode value) {
    return value.isTextual() ? value.asText() : value.toString();
  }

  private static Object options(List<JsonNode> choices) {
    // label before value, always: the task's variable reads the same on every node and after every restart
    List<ObjectNode> options = choices.stream()
        .map(choice -> JSON.createObjectNode().put("label", shownText(choice)).put("value", shownText(choice)))
        .toList();
    try {
      // a JSON list: Tasklist hands it to the form's select as its options
      return SpinValues.jsonValue(JSON.writeValueAsString(options)).create();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the choices as options", e);
    }
  }
}
