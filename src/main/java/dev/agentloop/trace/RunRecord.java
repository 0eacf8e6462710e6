package dev.agentloop.trace;

import java.time.Instant;

/** A run as the step store keeps it: identity, question, lifecycle, head and what it has used. */
public record RunRecord(
    String runId,
    String agentKey,
    String question,
    RunStatus status,
    String statusReason,
    RunHead head,
    int modelCalls,
    int toolCalls,
    long tokens,
    Instant createdAt,
    Instant endedAt,
    String restartedFrom,
    Integer restartedFromStep) {}
