package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Bodies of the requests that change a run's course. */
final class ResumeRequests {

  private ResumeRequests() {}

  /**
   * {@code POST /api/runs/{id}/steps/{stepId}/edit}.
   *
   * @param baseVersion {@code version} of the run as read before editing
   * @param replayLaterTurns in a conversation, whether the later turns' questions are asked again (default false)
   */
  record Edit(
      @NotNull(message = "must be the step's new content, a JSON object such as {\"text\": \"...\"}") JsonNode content,
      @NotBlank(message = "must say why the step is edited") @Size(max = 2000) String reason,
      @NotNull(message = "must be the version of the run the edit was made on (\"version\" of GET /api/runs/{id})")
      Integer baseVersion,
      Boolean replayLaterTurns) {}

  /** {@code POST /api/runs/{id}/regenerate} (the reason is optional) and {@code .../stop}. */
  record Reason(@Size(max = 2000) String reason) {}

  /**
   * {@code POST /api/runs/{id}/regenerate}: without {@code turn}, the newest answer.
   *
   * @param turn the turn of the conversation whose answer is regenerated, from 1
   * @param replayLaterTurns whether the questions of the later turns are asked again on the new branch
   */
  record Regenerate(
      @jakarta.validation.constraints.Min(value = 1, message = "must be a turn number, from 1") Integer turn,
      Boolean replayLaterTurns,
      @Size(max = 2000) String reason) {}

  /** {@code POST /api/runs/{id}/restart}. */
  record Restart(
      @NotNull(message = "must be the step to restart from (its id in the trace)") Integer fromStep,
      @NotBlank(message = "must say why the run is restarted") @Size(max = 2000) String reason) {}
}
