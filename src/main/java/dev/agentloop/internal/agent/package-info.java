/**
 * The agent itself, in four parts: {@link dev.agentloop.internal.agent.definition} (what an agent is: its settings from the
 * BPMN diagram and the rules a diagram must keep), {@link dev.agentloop.internal.agent.loop} (one pass of plan, think and act:
 * prompts, reply interpretation, routing, the topic handlers), {@link dev.agentloop.internal.agent.run} (runs and
 * conversations: starting and reading them behind the API's {@link dev.agentloop.api.AgentRuns}, their lifecycle
 * and cost) and {@link dev.agentloop.internal.agent.compose} (agents that call agents). Here stay what all four share: the
 * process's names ({@link dev.agentloop.internal.agent.ReactAgentProcess}, {@link dev.agentloop.internal.agent.ProcessVariable}), the
 * steps the agent writes ({@link dev.agentloop.internal.agent.Steps}), the kinds of review and the Spring configuration.
 */
package dev.agentloop.internal.agent;
