/**
 * What a step holds: the sealed family of step contents (plan, thought, action, observation, final answer, a
 * person's input, a follow-up question, approvals), each a record stored as JSON in the step's row.
 */
package dev.agentloop.internal.trace.step;
