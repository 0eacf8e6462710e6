package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.regex.Pattern;

/**
 * What AgentLoop deploys itself, from its own jar, as the deployment {@code agentloop} ({@code agentloop.deployment.*},
 * bound by package {@code config}): its forms always, since every agent's review tasks use them, and its default
 * agent under a key a host may choose. Here rather than in {@code config} because the REST API, too, starts the
 * default agent when a request names none. Immutable.
 *
 * @param defaultAgent whether the shipped default agent is deployed too
 * @param defaultAgentKey the process key AgentLoop's default agent is deployed under, and the agent a run started
 *     through the REST API without naming one goes to; set another where the application's own process has the key
 *     `react-agent` (a letter or `_` first, then letters, digits, `_`, `-`, `.`)
 */
public record DeploymentSettings(boolean defaultAgent, String defaultAgentKey) {

  /** A BPMN process id as Camunda takes it, which a key stays within. */
  private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,254}");

  public DeploymentSettings {
    defaultAgentKey = defaultAgentKey == null || defaultAgentKey.isBlank() ? ReactAgentProcess.KEY : defaultAgentKey.strip();
    if (!KEY.matcher(defaultAgentKey).matches()) {
      throw new IllegalArgumentException("agentloop.deployment.default-agent-key must be a process key (a letter or"
          + " '_' first, then letters, digits, '_', '-' or '.'), was '" + defaultAgentKey + "'");
    }
  }
}
