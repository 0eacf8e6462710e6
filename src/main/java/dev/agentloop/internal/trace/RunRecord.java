package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import java.time.Instant;

/**
 * A run as the step store keeps it: identity, question, lifecycle, head and what it has used.
 *
 * @param answerSchema the answer schema its start gave (JSON), over the agent's own; {@code null}: the agent's
 */
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
    Restart restartedFrom,
    String answerSchema) {

  /** A run whose start gave no answer schema. */
  public RunRecord(String runId, String agentKey, String question, RunStatus status, String statusReason,
      RunHead head, int modelCalls, int toolCalls, long tokens, Instant createdAt, Instant endedAt,
      Restart restartedFrom) {
    this(runId, agentKey, question, status, statusReason, head, modelCalls, toolCalls, tokens, createdAt, endedAt,
        restartedFrom, null);
  }

  /** Where a restarted run came from, who restarted it and why. */
  public record Restart(String runId, int fromStep, String by, String reason) {}

  /** The record after an append moved its head and spent {@code usage}. */
  public RunRecord advancedTo(RunHead newHead, Usage usage) {
    return new RunRecord(runId, agentKey, question, status, statusReason, newHead, modelCalls + usage.modelCalls(),
        toolCalls + usage.toolCalls(), tokens + usage.tokens(), createdAt, endedAt, restartedFrom, answerSchema);
  }
}
