package dev.agentloop.internal.mcp;

import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.agent.run.ConversationInUseException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.EventCursor;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.StepReads;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.BadUserRequestException;

/**
 * What a tool call asks of AgentLoop, done as its caller: a new run of the agent, or — when the call names the
 * conversation of an open run of the agent that waits for its next question — that conversation's next turn. Both
 * with the caller's rights, as through the REST API.
 */
final class RunOpening {

  /** The run that answers a call, and where following it starts: its start, or the turn the call asked. */
  record Opened(String runId, EventCursor from) {}

  private final RunService runs;
  private final Conversations conversations;
  private final RunAccess access;
  private final StepReads store;

  RunOpening(RunService runs, Conversations conversations, RunAccess access, StepReads store) {
    this.runs = runs;
    this.conversations = conversations;
    this.access = access;
    this.store = store;
  }

  /**
   * Runs as the current user (the caller).
   *
   * @throws McpCallException in words, when the caller may not, the agent is unknown or the conversation is busy
   */
  Opened open(String agent, String question, String conversationId) {
    try {
      if (conversationId != null) {
        Opened turn = nextTurn(agent, question, conversationId);
        if (turn != null) {
          return turn;
        }
      }
      return new Opened(runs.start(agent, question, conversationId), EventCursor.START);
    } catch (AuthorizationException e) {
      throw new McpCallException("user " + access.currentUser() + " may not start agent '" + agent + "': "
          + e.getMessage());
    } catch (UnknownAgentException e) {
      throw new McpCallException(e.getMessage());
    } catch (ConversationInUseException e) {
      throw new McpCallException((e.runId() != null && access.mayRead(e.runId()) ? e : e.withoutRun()).getMessage());
    } catch (BadUserRequestException e) {
      throw new McpCallException(e.getMessage());
    }
  }

  /** The open run of the conversation, when it waits for its next question: asked it; else {@code null}. */
  private Opened nextTurn(String agent, String question, String conversationId) {
    for (String runId : runs.runsOfConversation(conversationId)) {
      if (!access.mayRead(runId) || !runs.waitsForFollowUp(runId)) {
        continue;
      }
      RunView view = runs.view(runId);
      if (!view.agent().equals(agent)) {
        throw new McpCallException("conversation '" + conversationId + "' is a conversation with agent '"
            + view.agent() + "': ask that agent's tool, or use another conversationId");
      }
      int before = store.run(runId).head().stepCount();
      conversations.ask(runId, question, access.currentUser());
      return new Opened(runId, new EventCursor(before, "N"));
    }
    return null;
  }
}
