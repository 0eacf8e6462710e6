package dev.agentloop.agent;

import java.util.Map;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.variable.Variables;

/**
 * A typed process variable. The only place a variable's name is written is its constant in
 * {@link ReactAgentProcess}.
 */
public record ProcessVariable<T>(String name, Class<T> type) {

  public static ProcessVariable<String> string(String name) {
    return new ProcessVariable<>(name, String.class);
  }

  public T get(VariableScope scope) {
    return type.cast(scope.getVariable(name));
  }

  public T get(Map<String, ?> variables) {
    return type.cast(variables.get(name));
  }

  public Map<String, Object> with(T value) {
    return Map.of(name, value);
  }

  /**
   * The variable as a transient value: set by a completion and read by the gateway after it in the
   * same transaction, never written to the database.
   */
  public Map<String, Object> transientWith(T value) {
    return Map.of(name, Variables.untypedValue(value, true));
  }
}
