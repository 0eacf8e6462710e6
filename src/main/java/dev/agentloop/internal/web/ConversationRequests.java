package dev.agentloop.internal.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Bodies of the requests that go on with a conversation. */
final class ConversationRequests {

  private ConversationRequests() {}

  /** {@code POST /api/runs/{id}/messages}: the next question, as long as a run's first one may be. */
  record Message(
      @NotBlank(message = "must not be blank: say what the agent should answer next")
      @Size(max = 20_000, message = "must be at most 20000 characters")
      String question) {}
}
