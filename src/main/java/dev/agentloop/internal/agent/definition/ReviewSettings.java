package dev.agentloop.internal.agent.definition;

import java.time.Duration;
import java.util.Objects;

/**
 * Where people come into an agent's run: whether its plan and its answer wait for a reviewer, how often a reviewer
 * may send the plan back, and how long the agent waits for a person's answer. Immutable.
 *
 * @param autoAcceptPlan {@code true}: the plan is accepted without a review task
 * @param autoAcceptAnswer {@code true}: the final answer is accepted without a review task
 * @param maxPlanRevisions how often a reviewer may send the plan back; then {@code whenPlanRevisionsRunOut}
 * @param whenPlanRevisionsRunOut what a further "revise" becomes once the revisions ran out
 * @param askHumanTimeout how long the agent waits for a person's answer before it goes on without one
 */
public record ReviewSettings(
    boolean autoAcceptPlan,
    boolean autoAcceptAnswer,
    int maxPlanRevisions,
    RevisionsRunOut whenPlanRevisionsRunOut,
    Duration askHumanTimeout) {

  public ReviewSettings {
    Objects.requireNonNull(whenPlanRevisionsRunOut, "whenPlanRevisionsRunOut");
    Objects.requireNonNull(askHumanTimeout, "askHumanTimeout");
    if (maxPlanRevisions < 0) {
      throw new IllegalArgumentException("maxPlanRevisions must be 0 or more, was " + maxPlanRevisions);
    }
  }

  /**
   * @param values the extension properties of the agent's elements
   * @throws InvalidAgentSettingException naming the property when a value cannot be used
   */
  static ReviewSettings of(SettingValues values, AgentDefaults defaults) {
    return new ReviewSettings(
        values.flag(AgentSettings.AUTO_ACCEPT_PLAN, defaults.autoAcceptPlan()),
        values.flag(AgentSettings.AUTO_ACCEPT_ANSWER, defaults.autoAcceptAnswer()),
        values.count(AgentSettings.MAX_PLAN_REVISIONS, defaults.maxPlanRevisions(), 0),
        values.choice(AgentSettings.WHEN_PLAN_REVISIONS_RUN_OUT, defaults.whenPlanRevisionsRunOut()),
        values.duration(AgentSettings.ASK_HUMAN_TIMEOUT, defaults.askHumanTimeout()));
  }
}
