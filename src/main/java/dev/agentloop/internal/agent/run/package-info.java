/**
 * Runs and conversations: {@link dev.agentloop.internal.agent.run.RunService} starts and reads runs behind the API's
 * {@link dev.agentloop.api.AgentRuns}; a run's lifecycle (status, the questions a redone turn asks again), the turns
 * of a conversation, the step that is active now, and the money a run's model calls cost.
 */
package dev.agentloop.internal.agent.run;
