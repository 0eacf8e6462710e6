package dev.agentloop.trace;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A step about to be written; the store gives it its number, parent, turn and time.
 *
 * @param author "model", a tool's name, or the user id of a person
 * @param reason why a person wrote it, or {@code null}
 */
public record NewStep(StepKind kind, JsonNode content, String author, String reason) {

  public NewStep {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(content, "content");
    if (author == null || author.isBlank()) {
      throw new IllegalArgumentException("author must not be blank");
    }
  }

  public NewStep(StepKind kind, JsonNode content, String author) {
    this(kind, content, author, null);
  }

  public NewStep withReason(String newReason) {
    return new NewStep(kind, content, author, newReason);
  }

  /** A step as it was stored, to be written again on another branch or run. */
  public static NewStep copyOf(Step step) {
    return new NewStep(step.kind(), step.content(), step.author(), step.reason());
  }
}
