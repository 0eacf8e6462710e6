package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.MismatchingMessageCorrelationException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The next question of a conversation, and its close: each one transaction in which the run is
 * locked, checked to wait for a follow-up ({@link ReactAgentProcess#AWAIT_FOLLOW_UP}), the question
 * written as a step authored by who asked, and the waiting instance given the message. Two questions
 * at the same moment: the first wins, the other gets a {@link ResumeConflictException} and nothing of
 * it is written. Who may: whoever may change the run, and the user who started it. Thread-safe.
 */
public class Conversations {

  private static final Logger LOG = LoggerFactory.getLogger(Conversations.class);

  private final ProcessEngine engine;
  private final StepStore store;
  private final RunService runs;
  private final RunAccess access;
  private final RunChanges changes;
  private final DecisionLog decisions;
  private final DecisionSpans spans;

  Conversations(ProcessEngine engine, StepStore store, RunService runs, RunAccess access, RunChanges changes,
      DecisionLog decisions, DecisionSpans spans) {
    this.spans = spans;
    this.engine = engine;
    this.store = store;
    this.runs = runs;
    this.access = access;
    this.changes = changes;
    this.decisions = decisions;
  }

  /**
   * Asks the next question of a conversation waiting for it; the run plans and answers it as a new turn.
   *
   * @throws ResumeConflictException when the run has ended or waits for something else (409)
   * @throws AuthorizationException when the current user may not ask (403)
   */
  public void ask(String runId, String question, String author) {
    if (question == null || question.isBlank()) {
      throw new InvalidEditException("say what to ask (question): a follow-up needs a non-empty question");
    }
    requireMayAsk(runId);
    changes.apply(runId, () -> {
      RunRecord run = waiting(runId, "take a follow-up question");
      store.append(run.head(), List.of(Steps.followUp(question, author, null)), Usage.NONE);
      spans.decided(runId, "follow_up", author, null);
      correlate(runId, ReactAgentProcess.FOLLOW_UP_MESSAGE, ReactAgentProcess.QUESTION.with(question));
      return null;
    });
    LOG.info("run {}: follow-up question asked by {}", runId, author);
  }

  /**
   * Closes a conversation that waits for its next question; the run ends ANSWERED with the reason.
   *
   * @throws ResumeConflictException when the run has ended or waits for something else (409)
   */
  public void close(String runId, String reason, String author) {
    requireMayAsk(runId);
    String why = "closed by " + author + (reason == null || reason.isBlank() ? "" : ": " + reason);
    changes.apply(runId, () -> {
      RunRecord run = waiting(runId, "be closed");
      if (run.head().headStep() != null) {
        decisions.record(runId, run.head().headStep(), "close", author, reason);
      }
      // before the message ends the run: an ended run's trace context is gone with its execution
      spans.decided(runId, "close", author, reason);
      correlate(runId, ReactAgentProcess.CLOSE_MESSAGE, ReactAgentProcess.STATUS_REASON.with(why));
      return null;
    });
  }

  /** The run, locked, when it is a conversation waiting for its next question; else a 409 saying what it waits for. */
  private RunRecord waiting(String runId, String what) {
    RunRecord run = store.lockRun(runId);
    if (run.status().isFinished()) {
      throw new ResumeConflictException("run " + runId + " has ended (" + run.status() + ") and cannot " + what
          + "; start a new run, or restart this one from a step");
    }
    if (!runs.waitsForFollowUp(runId)) {
      List<String> waitingFor = runs.waitingFor(runId);
      throw new ResumeConflictException("run " + runId + " does not wait for a follow-up question and cannot " + what
          + " now: " + (waitingFor.isEmpty() ? "the agent is working on its current turn"
              : "it waits for " + String.join(", ", waitingFor))
          + "; a conversation takes its next question once its current answer is accepted, and a one-shot agent"
          + " (conversation=false) takes none");
    }
    return run;
  }

  private void correlate(String runId, String message, Map<String, Object> variables) {
    try {
      engine.getRuntimeService().createMessageCorrelation(message).processInstanceId(runId)
          .setVariables(variables).correlateWithResult();
    } catch (MismatchingMessageCorrelationException e) {
      // the instance moved on between the check and the message: nothing of this request stays
      throw new ResumeConflictException("run " + runId + " stopped waiting for a follow-up at the same moment;"
          + " nothing of this request was applied: read the run again", e);
    }
  }

  private void requireMayAsk(String runId) {
    if (access.mayChange(runId)) {
      return;
    }
    HistoricProcessInstance instance = engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processInstanceId(runId).singleResult();
    String user = access.currentUser();
    if (instance == null || !user.equals(instance.getStartUserId())) {
      throw new AuthorizationException("user " + user + " may not ask run " + runId + " a follow-up or close it:"
          + " that is for who started the run, " + "agent-operators, and reviewers while it waits on their task");
    }
  }
}
