/**
 * The agent itself: the process constants, agent settings from BPMN, loop state, prompts (with a
 * conversation's earlier turns, and a digest of older turns past the context budget), the turns of a
 * conversation, the interpretation of model replies, routing, and the handlers of the plan, think and
 * act topics.
 */
package dev.agentloop.agent;
