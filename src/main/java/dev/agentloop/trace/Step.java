package dev.agentloop.trace;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One stored step of a run. Step numbers count from 1 in the order steps were written, so on the
 * active path a child always has a higher number than its parent.
 *
 * @param turn the model turn the step belongs to (0 before the first thought)
 * @param supersedes the step this one replaced, or {@code null}
 * @param reason why a person wrote or edited it, or {@code null}
 */
public record Step(
    String runId,
    int stepNo,
    Integer parentNo,
    StepKind kind,
    int turn,
    JsonNode content,
    StepStatus status,
    String author,
    Instant createdAt,
    Integer supersedes,
    String reason) {

  public Step {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  public boolean isActive() {
    return status == StepStatus.ACTIVE;
  }

  /** A text field of the content, or "" when absent. */
  public String text(String field) {
    JsonNode value = content.get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }
}
