package dev.agentloop.internal.trace;

import java.util.Objects;

/**
 * What a person asked of a migration: the runs of an agent go to one version of it, for a reason.
 *
 * @param toDefinition the process definition id of the version the runs go to
 * @param moveWhenWaiting whether a run busy in a model or tool call moves when it next waits ({@code true}) or is
 *     refused
 * @param requestedBy who asked, the author of each run's migration decision
 * @param reason why, in their words: kept with each run's decision
 */
public record MigrationOrder(String agentKey, String toDefinition, int toVersion, boolean moveWhenWaiting,
    String requestedBy, String reason) {

  public MigrationOrder {
    Objects.requireNonNull(agentKey, "agentKey");
    Objects.requireNonNull(toDefinition, "toDefinition");
    Objects.requireNonNull(requestedBy, "requestedBy");
    Objects.requireNonNull(reason, "reason");
    if (toVersion < 1) {
      throw new IllegalArgumentException("toVersion must be a version of the agent, from 1, was " + toVersion);
    }
  }
}
