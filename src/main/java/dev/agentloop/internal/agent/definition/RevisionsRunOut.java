package dev.agentloop.internal.agent.definition;

/**
 * What happens when a reviewer asks for one revision of the plan too many (an agent setting,
 * {@code whenPlanRevisionsRunOut}); the plan review applies it.
 */
public enum RevisionsRunOut { ACCEPT, REJECT }
