package dev.agentloop.internal.agent;

/**
 * A run that another agent called cannot finish by itself: one of its steps failed for good (an incident), or its run
 * time ran out. Published in the transaction that found it; acted on after it commits, by stopping the run with the
 * reason, so that its caller observes why there is no answer at once and goes on.
 *
 * @param childRun the run that cannot finish
 * @param reason why, in words, e.g. "its step 'Act' failed: the CRM answered 503"
 */
public record ChildRunCannotFinish(String childRun, String reason) {}
