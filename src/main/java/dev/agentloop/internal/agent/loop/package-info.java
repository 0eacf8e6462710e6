/**
 * One pass of the loop: the handlers of the plan, think and act topics, the state they read from the active path,
 * the prompt (with a conversation's earlier turns and a digest of older turns past the context budget), the
 * interpretation of model replies, routing, the escape checks, and the dispatch of a turn's tool calls to local
 * tools, remote workers and other agents. What a call cost is measured here, where it is made.
 */
package dev.agentloop.internal.agent.loop;
