package dev.agentloop.internal.agent;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The kinds of user tasks AgentLoop fills and reads. A user task is one of them when its extension
 * property {@value #PROPERTY} names the kind, e.g. {@code agentloop.review = plan}. Part of what an
 * agent diagram is, so here with the diagram's rules ({@link dev.agentloop.internal.agent.definition.AgentDiagramRules}); package
 * {@code review} implements one review per kind.
 */
public enum ReviewKind {
  PLAN("plan"),
  ASK_HUMAN("askHuman"),
  APPROVE_ACTION("approveAction"),
  ANSWER("answer"),
  AGENT_STUCK("agentStuck");

  public static final String PROPERTY = ReactAgentProcess.REVIEW_PROPERTY;

  private final String value;

  ReviewKind(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** @throws IllegalArgumentException naming the valid kinds when {@code value} is none of them */
  public static ReviewKind of(String value) {
    return Arrays.stream(values()).filter(kind -> kind.value.equals(value)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("'" + value + "' is not a review kind; use one of "
            + Arrays.stream(values()).map(ReviewKind::value).collect(Collectors.joining(", "))));
  }
}
