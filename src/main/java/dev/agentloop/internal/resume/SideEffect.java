package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A call of a side-effecting tool that ran on a branch an edit abandoned: what happened in the
 * world stays happened, so the person editing is told.
 *
 * @param step the observation step of the call
 * @param result what the tool returned, or {@code null} when it failed ({@code error})
 */
public record SideEffect(int step, String tool, JsonNode arguments, String result, String error) {}
