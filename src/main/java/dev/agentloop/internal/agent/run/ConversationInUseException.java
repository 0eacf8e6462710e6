package dev.agentloop.internal.agent.run;

/**
 * A run was asked to start under a conversation id that an open run already holds, or that another start
 * took at the same moment (on any node: the id's claim is in the database): a client's conversation is one
 * run, which takes its next questions as follow-ups until it ends.
 */
public class ConversationInUseException extends RuntimeException {

  private final String conversationId;
  private final String runId;

  /** @param runId the open run that holds the id, or {@code null} when the caller may not be told which */
  public ConversationInUseException(String conversationId, String runId) {
    super("conversation id '" + conversationId + "' is held by "
        + (runId == null ? "an open run" : "run " + runId + ", which is still open")
        + ": send its next question to that run (POST .../runs/{id}/messages) or close it first;"
        + " a conversation id names one open run at a time");
    this.conversationId = conversationId;
    this.runId = runId;
  }

  public String conversationId() {
    return conversationId;
  }

  /** The open run that holds the id, or {@code null}. */
  public String runId() {
    return runId;
  }

  /** The same refusal without naming the run, for a caller who may not read it. */
  public ConversationInUseException withoutRun() {
    return new ConversationInUseException(conversationId, null);
  }
}
