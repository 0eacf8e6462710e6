package dev.agentloop.internal.trace;

/**
 * The head of a run as read before a step is prepared. Appending against it fails with
 * {@link StaleHeadException} when the head moved meanwhile (an edit, another node), so a late
 * result never lands on a path it was not computed from.
 *
 * @param headStep the step number of the head, or {@code null} before the first step
 * @param headTurn the turn of the head step (0 when there is none)
 */
public record RunHead(String runId, int version, Integer headStep, int headTurn, int stepCount) {}
