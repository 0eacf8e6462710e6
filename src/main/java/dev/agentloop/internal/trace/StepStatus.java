package dev.agentloop.internal.trace;

/** A step is on the active path, or on a branch that an edit replaced. */
public enum StepStatus { ACTIVE, SUPERSEDED }
