package dev.agentloop.api;

import java.util.Collection;

/** A run was asked of an agent that is not deployed. */
public class UnknownAgentException extends RuntimeException {

  public UnknownAgentException(String agentKey, Collection<String> deployedAgents) {
    super("there is no agent '" + agentKey + "'; deployed agents: "
        + (deployedAgents.isEmpty() ? "none" : String.join(", ", deployedAgents)));
  }
}
