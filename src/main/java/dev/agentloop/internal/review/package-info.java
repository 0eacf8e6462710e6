/**
 * The people in the loop: plan review, answers to the agent's questions, approval of tool calls,
 * answer review, and the agent-stuck task for runs that left their loop. Each user task gets its form
 * data on create; what a person submits is checked and becomes a decision for the diagram and steps
 * in the trace authored by that person. Each of these events reads the run once ({@link dev.agentloop.internal.trace.RunState})
 * and the review works on what was read. A refused submission or a lost race is an expected outcome, kept
 * out of the engine's error log.
 */
package dev.agentloop.internal.review;
