/**
 * The agent itself: the process constants, agent settings from BPMN, loop state, prompts (with a
 * conversation's earlier turns, and a digest of older turns past the context budget), the turns of a
 * conversation, the interpretation of model replies, routing, the rules and warnings for agent diagrams at
 * deployment, the handlers of the plan, think and act topics, and what a run's model calls cost (money per
 * step and run, meters per agent and model).
 */
package dev.agentloop.agent;
