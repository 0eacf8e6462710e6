package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.trace.step.StepContent;
import java.time.Instant;
import java.util.Objects;

/**
 * A step about to be written; the store gives it its number, parent, turn and time.
 *
 * @param author "model", a tool's name, or the user id of a person
 * @param reason why a person wrote it, or {@code null}
 */
public record NewStep(StepContent content, String author, String reason) {

  public NewStep {
    Objects.requireNonNull(content, "content");
    if (author == null || author.isBlank()) {
      throw new IllegalArgumentException("author must not be blank");
    }
  }

  public NewStep(StepContent content, String author) {
    this(content, author, null);
  }

  public StepKind kind() {
    return content.kind();
  }

  /** The content as it will be stored and shown by the REST API. */
  public JsonNode json() {
    return content.toJson();
  }

  /** A step as it was stored, to be written again on another branch or run. */
  public static NewStep copyOf(Step step) {
    return new NewStep(step.content(), step.author(), step.reason());
  }

  /** This step as stored at {@code stepNo} on the active path, below {@code parentNo}. */
  public Step at(String runId, int stepNo, Integer parentNo, int turn, Instant createdAt) {
    return new Step(runId, stepNo, parentNo, turn, content, StepStatus.ACTIVE, author, createdAt, null, reason);
  }
}
