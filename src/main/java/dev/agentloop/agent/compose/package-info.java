/**
 * Agents that call agents: another agent offered as a tool, and both ends of the call activity that runs it as a
 * child run, one call after another or side by side; the child's answer becomes the caller's observation.
 */
package dev.agentloop.agent.compose;
