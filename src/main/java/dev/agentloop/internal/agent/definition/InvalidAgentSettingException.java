package dev.agentloop.internal.agent.definition;

/** An agent's diagram sets a property to a value AgentLoop cannot use. */
public class InvalidAgentSettingException extends RuntimeException {

  private final String property;

  public InvalidAgentSettingException(String property, String value, String expected) {
    super("agent property '" + property + "' is '" + value + "' but must be " + expected);
    this.property = property;
  }

  public String property() {
    return property;
  }
}
