package dev.agentloop.internal.resume;

/**
 * What the current user may do with a run now, for user interfaces that enable their buttons
 * accordingly; the service checks again on every call.
 *
 * @param why why some actions are not possible, or {@code null} when all are
 */
public record RunActions(boolean edit, boolean regenerate, boolean stop, boolean restart, String why) {}
