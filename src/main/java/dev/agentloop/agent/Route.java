package dev.agentloop.agent;

/**
 * Where the agent loop goes next. The gateway {@code nextStep} compares the {@code route}
 * variable with these values, e.g. {@code ${route == 'act'}}.
 */
public enum Route {
  THINK("think"),
  ACT("act"),
  DONE("done");

  private final String value;

  Route(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
