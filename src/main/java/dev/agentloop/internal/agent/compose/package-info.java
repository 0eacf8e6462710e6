/**
 * Agents that call agents, at run time: both ends of the call activity that runs a called agent as a child run,
 * one call after another or side by side, and the child's answer (or why there is none) written as the caller's
 * observation. Which agents a diagram may call, offered to the model as tools, is part of its definition
 * ({@link dev.agentloop.internal.agent.definition.AgentsAsTools}).
 */
package dev.agentloop.internal.agent.compose;
