/**
 * The A2A protocol (version 1.0, JSON-RPC binding) as AgentLoop speaks it, both ways: its names and task states
 * ({@link dev.agentloop.internal.tool.a2a.A2aProtocol}), and remote A2A agents as tools, each declared in
 * {@code agentloop.tools.a2a.<name>} and called with the same time-out, retries, breaker, budget and approval as
 * any tool; a remote task that waits for input ends the call with a {@link dev.agentloop.internal.tool.RemoteInput}.
 */
package dev.agentloop.internal.tool.a2a;
