package dev.agentloop.internal.trace;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What a model received in one call, as JSON: its messages (an array, one object per message) and
 * the tools it was offered. Stored with the first step the call wrote (see {@link PromptArchive}).
 *
 * @param purpose {@code PLAN} or {@code THINK}: only prompts of one purpose are stored as changes of each other
 */
public record SentPrompt(String purpose, JsonNode messages, JsonNode tools) {

  public SentPrompt {
    Objects.requireNonNull(purpose, "purpose");
    if (messages == null || !messages.isArray()) {
      throw new IllegalArgumentException("messages must be a JSON array");
    }
    if (tools == null || !tools.isArray()) {
      throw new IllegalArgumentException("tools must be a JSON array");
    }
  }
}
