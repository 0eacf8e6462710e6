package dev.agentloop.internal.resume;

import dev.agentloop.internal.trace.Decision;
import java.util.Objects;

/**
 * A run moved to another version of its agent, published inside the transaction that moved it, so that what shows
 * the run (its open review tasks' forms) says so in that same transaction.
 *
 * @param decision the audited decision: who, when, why, from which version to which
 */
public record RunMigrated(String runId, String agentKey, Decision decision) {

  public RunMigrated {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(agentKey, "agentKey");
    Objects.requireNonNull(decision, "decision");
    if (decision.toVersion() == null) {
      throw new IllegalArgumentException("a run's migration names the version it moved to");
    }
  }
}
