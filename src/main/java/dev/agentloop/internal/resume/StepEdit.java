package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A person's edit of one step of a run.
 *
 * @param content the step's new content, in the shape of its kind (see {@link dev.agentloop.internal.trace.step.StepKind});
 *     for an action {@code {"tool"?, "arguments"}}, for an observation {@code {"result"}} or {@code {"error"}}
 * @param baseVersion the version of the run's head the edit was made on ({@code version} of the run
 *     view): an edit on a head that has moved since is refused, never applied to a path it was not made for
 * @param author the user id of the person editing
 * @param replayLaterTurns in a conversation, whether the questions of the turns after the edited step
 *     are asked again on the new branch (as after a regenerated turn), or dropped
 */
public record StepEdit(String runId, int stepNo, JsonNode content, String reason, int baseVersion, String author,
    boolean replayLaterTurns) {

  public StepEdit {
    Objects.requireNonNull(runId, "runId");
    if (content == null || !content.isObject()) {
      throw new InvalidEditException("the content of an edit must be a JSON object, e.g. {\"text\": \"...\"}"
          + " for a thought");
    }
    if (reason == null || reason.isBlank()) {
      throw new InvalidEditException("say why the step is edited (reason): it is kept with the edit");
    }
    Objects.requireNonNull(author, "author");
  }

  /** An edit that drops the later turns of a conversation, if there are any. */
  public StepEdit(String runId, int stepNo, JsonNode content, String reason, int baseVersion, String author) {
    this(runId, stepNo, content, reason, baseVersion, author, false);
  }
}
