package dev.agentloop.internal.trace.step;


/** What a step is; its content is the {@link StepContent} record of the kind. */
public enum StepKind {
  PLAN, THOUGHT, ACTION, OBSERVATION, HUMAN_INPUT, FINAL_ANSWER;

  /** A model turn begins with its thought, or with its final answer when it has nothing else to say. */
  public boolean startsTurn() {
    return this == THOUGHT || this == FINAL_ANSWER;
  }
}
