package dev.agentloop.internal.review;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;

/**
 * An open user task of a run, with the form data it was given.
 *
 * @param kind the review kind ({@code plan}, {@code askHuman}, ...), or {@code null} for other user tasks
 */
public record ReviewTaskView(
    String id,
    String taskDefinitionKey,
    String name,
    String kind,
    String assignee,
    Instant created,
    Map<String, JsonNode> form) {}
