package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.trace.step.StepContent;
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
    int turn,
    StepContent content,
    StepStatus status,
    String author,
    Instant createdAt,
    Integer supersedes,
    String reason) {

  public Step {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  public StepKind kind() {
    return content.kind();
  }

  /**
   * The content as the kind the caller expects, e.g. {@code step.contentAs(Action.class)} for an ACTION step.
   *
   * @throws IllegalArgumentException when the step holds another kind
   */
  public <T extends StepContent> T contentAs(Class<T> kind) {
    if (!kind.isInstance(content)) {
      throw new IllegalArgumentException("step " + stepNo + " is a " + kind() + ", not a " + kind.getSimpleName());
    }
    return kind.cast(content);
  }

  public boolean isActive() {
    return status == StepStatus.ACTIVE;
  }

  /** The same step with other content, e.g. a call marked as repeating a side effect. */
  public Step withContent(StepContent newContent) {
    return new Step(runId, stepNo, parentNo, turn, newContent, status, author, createdAt, supersedes, reason);
  }

  /** The same step as the replacement of step {@code replaced}. */
  Step superseding(int replaced) {
    return new Step(runId, stepNo, parentNo, turn, content, status, author, createdAt, replaced, reason);
  }

  /** The content as stored and shown by the REST API. */
  public JsonNode json() {
    return content.toJson();
  }

  /** A text field of the content's JSON form, or "" when absent: for clients of the JSON form, such as tests. */
  public String text(String field) {
    JsonNode value = json().get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }
}
