package dev.agentloop.internal.evaluation;

import java.time.Instant;
import java.util.Objects;

/**
 * An evaluation as its table keeps it.
 *
 * @param candidateVersion the agent's version the candidate is, or {@code null} for an uploaded diagram
 * @param choices the replay choices and the judge, as JSON ({@link EvaluationJson})
 * @param summary what the cases came to, as JSON, once it ended; else {@code null}
 * @param createdBy who started it, or {@code the application} for code without a user
 * @param promotion who made the candidate the agent's version, or {@code null}
 */
public record EvaluationRow(String id, String agentKey, String candidateKey, Integer candidateVersion, String choices,
    EvaluationStatus status, String summary, String reason, String createdBy, Instant createdAt, Instant endedAt,
    Promotion promotion) {

  public EvaluationRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(agentKey, "agentKey");
    Objects.requireNonNull(status, "status");
  }

  /** A person made the candidate the version new runs start on: who, when, why, and which version it became. */
  public record Promotion(String by, Instant at, String reason, int version) {}
}
