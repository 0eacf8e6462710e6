package dev.agentloop.internal.review;

/**
 * What a review decided and on which step, for the gateway after the task and for the trace.
 *
 * @param decision the choice; its name in lower case is what the gateway compares, e.g. {@code ${decision == 'revise'}}
 * @param stepNo the step it was decided on, e.g. the plan or the answer reviewed; {@code null} for a run
 *     without steps, where the decision goes to the gateway only
 * @param reason why, where the person said so, else blank or {@code null}
 */
record Decided(Enum<?> decision, Integer stepNo, String reason) {}
