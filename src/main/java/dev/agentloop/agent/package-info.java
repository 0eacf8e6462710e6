/**
 * The agent itself, in four parts: {@link dev.agentloop.agent.definition} (what an agent is: its settings from the
 * BPMN diagram and the rules a diagram must keep), {@link dev.agentloop.agent.loop} (one pass of plan, think and act:
 * prompts, reply interpretation, routing, the topic handlers), {@link dev.agentloop.agent.run} (runs and
 * conversations: starting and reading them behind the API's {@link dev.agentloop.api.AgentRuns}, their lifecycle
 * and cost) and {@link dev.agentloop.agent.compose} (agents that call agents). Here stay what all four share: the
 * process's names ({@link dev.agentloop.agent.ReactAgentProcess}, {@link dev.agentloop.agent.ProcessVariable}), the
 * steps the agent writes ({@link dev.agentloop.agent.Steps}), the kinds of review and the Spring configuration.
 */
package dev.agentloop.agent;
