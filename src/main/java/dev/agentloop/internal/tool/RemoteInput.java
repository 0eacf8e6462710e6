package dev.agentloop.internal.tool;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A remote agent's request for input: its task waits ({@code input-required}) until it is sent what it
 * asks. Written into the trace as one line of text (the call's observation, and the note of the turn in
 * which a person answers), and read back from there by {@link #parse}: the trace is the only state a run
 * has, so the task to continue is found where the model and the reviewers read it too. Immutable.
 *
 * @param tool the tool of the remote agent, which the answer is sent with
 * @param taskId the remote task waiting for input
 * @param contextId the remote context of that task; empty when the remote agent named none
 * @param question what the remote agent asks, as it wrote it
 */
public record RemoteInput(String tool, String taskId, String contextId, String question) {

  /** A remote id AgentLoop continues: no spaces, commas or parentheses, so that the line reads back unchanged. */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9._:~@/+=-]{1,200}");
  private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern LINE = Pattern.compile("remote agent '(" + TOOL.pattern() + ")' needs input to go on"
      + " \\(task (" + ID.pattern() + "), context (" + ID.pattern() + "|)\\): (.*)", Pattern.DOTALL);

  public RemoteInput {
    requireMatch(TOOL, tool, "tool");
    requireMatch(ID, taskId, "taskId");
    contextId = contextId == null ? "" : contextId;
    if (!contextId.isEmpty()) {
      requireMatch(ID, contextId, "contextId");
    }
    Objects.requireNonNull(question, "question");
    question = question.isBlank() ? "(the remote agent asked nothing in words)" : question.strip();
  }

  /** The line the trace holds; {@link #parse} reads it back. */
  public String describe() {
    return "remote agent '" + tool + "' needs input to go on (task " + taskId + ", context " + contextId + "): "
        + question;
  }

  /** The request a line of {@link #describe} stands for; empty for any other text. */
  public static Optional<RemoteInput> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher line = LINE.matcher(text.startsWith("ERROR: ") ? text.substring("ERROR: ".length()) : text);
    return line.matches() ? Optional.of(new RemoteInput(line.group(1), line.group(2), line.group(3), line.group(4)))
        : Optional.empty();
  }

  private static void requireMatch(Pattern pattern, String value, String name) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(name + " must match " + pattern + ", was "
          + (value == null ? "null" : "'" + (value.length() > 80 ? value.substring(0, 80) + "…" : value) + "'"));
    }
  }
}
