package dev.agentloop.internal.agent;

import dev.agentloop.internal.trace.StoredText;
import java.util.Map;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.variable.Variables;

/**
 * A typed process variable. The only place a variable's name is written is its constant in
 * {@link ReactAgentProcess}.
 */
public record ProcessVariable<T>(String name, Class<T> type) {

  /** Camunda keeps a string variable in a column of 4,000 characters (TEXT_ VARCHAR(4000)). */
  static final int STRING_COLUMN_CHARS = 4000;

  static ProcessVariable<String> string(String name) {
    return new ProcessVariable<>(name, String.class);
  }

  public T get(VariableScope scope) {
    return type.cast(scope.getVariable(name));
  }

  public T get(Map<String, ?> variables) {
    return type.cast(variables.get(name));
  }

  public Map<String, Object> with(T value) {
    return Map.of(name, storable(value));
  }

  public void set(VariableScope scope, T value) {
    scope.setVariable(name, storable(value));
  }

  public void setLocal(VariableScope scope, T value) {
    scope.setVariableLocal(name, storable(value));
  }

  /**
   * The value as it can be stored: a text with characters no database holds gets them replaced as
   * {@link StoredText} says; a text longer than Camunda's string column becomes an object
   * variable serialised as JSON (kept in a byte array, no length limit) and reads back as the same
   * {@code String}; anything else is stored as it is. A question, an answer or a note a person or a
   * model writes can be that long.
   */
  public static Object storable(Object value) {
    if (value instanceof String text) {
      String stored = StoredText.of(text);
      return stored.length() > STRING_COLUMN_CHARS
          ? Variables.objectValue(stored).serializationDataFormat(Variables.SerializationDataFormats.JSON).create()
          : stored;
    }
    return value;
  }

  /**
   * The variable as a transient value: set by a completion and read by the gateway after it in the
   * same transaction, never written to the database.
   */
  public Map<String, Object> transientWith(T value) {
    return Map.of(name, Variables.untypedValue(value, true));
  }
}
