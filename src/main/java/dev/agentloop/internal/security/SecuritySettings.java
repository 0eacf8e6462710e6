package dev.agentloop.internal.security;

/**
 * What AgentLoop sets up for access control ({@code agentloop.security.*}, bound by package
 * {@code config}). Immutable.
 *
 * @param groups create AgentLoop's groups `agent-reviewers`, `agent-operators` and
 *     `agent-workers`, their rights on agents and the Tasklist filter "Agent reviews"
 * @param secureEngineRest put Camunda's HTTP Basic authentication and the workers' fence in front of
 *     `/engine-rest`; off by default: how a host secures its engine REST API is its decision
 */
public record SecuritySettings(boolean groups, boolean secureEngineRest) {}
