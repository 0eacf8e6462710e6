package dev.agentloop.internal.security;

import java.time.Instant;
import java.util.Objects;

/**
 * Who owns an agent's key, as {@code GET /api/agents/{key}/owner} shows it. Immutable.
 *
 * @param agent the process-definition key
 * @param owner who owns it
 * @param group the owning group where {@code owner} is {@link Kind#GROUP}, else {@code null}
 * @param assignedBy who made the group the owner: the analyst whose deployment came first, or the administrator who
 *     handed the key over; {@code null} where no group owns it
 * @param assignedAt when; {@code null} where no group owns it
 */
public record AgentOwner(String agent, Kind owner, String group, String assignedBy, Instant assignedAt) {

  /** The kinds of owner of a key. */
  public enum Kind {
    /** AgentLoop's own key (its default agent): only the application deploys it, and it is no group's. */
    AGENTLOOP,
    /** Deployed by the application, or by a person who may deploy anything; an administrator may hand it to a group. */
    APPLICATION,
    /** A group's: its analysts deploy new versions; an administrator may hand it to another group or back. */
    GROUP,
    /** Not deployed and nobody's yet: the first analyst to deploy it makes it their group's. */
    NOBODY
  }

  public AgentOwner {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(owner, "owner");
    if ((owner == Kind.GROUP) != (group != null)) {
      throw new IllegalArgumentException("a key has a group exactly when a group owns it: " + owner + ", " + group);
    }
  }
}
