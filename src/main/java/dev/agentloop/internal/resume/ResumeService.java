package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ChildRunCannotFinish;
import dev.agentloop.internal.agent.compose.ChildRunEnded;
import dev.agentloop.internal.agent.loop.CallerBudgetSpent;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.llm.limits.ModelQueue;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * The one place where people change the course of a run from outside it (REST API, Cockpit plugin,
 * an embedding application): edit a step and continue from it, regenerate the final answer, stop
 * the run; restarting a finished run from a step is in {@link RunRestarts}. Each call is one
 * transaction: the trace surgery and the process instance modification are applied together or not
 * at all. Concurrent changes of one run: the first wins, the others get a
 * {@link ResumeConflictException} and change nothing. Thread-safe.
 *
 * <p>Here: who may change a run, and what it may do now. The changes themselves are {@link StepEdits},
 * {@link AnswerRegenerations} and {@link RunStops}.
 */
public class ResumeService {

  private final StepStore store;
  private final RunAccess access;
  private final RunChanges changes;
  private final ChildRunEdits childEdits;
  private final StepEdits edits;
  private final AnswerRegenerations regenerations;
  private final RunStops stops;
  private final TreeStops treeStops;
  private final ModelQueue queue;
  private final InFlowChanges inFlow;

  ResumeService(ProcessEngine engine, StepStore store, LoopStateReader reader, TraceSurgery surgery,
      EditedContent contents, RunAccess access, RunChanges changes, DecisionLog decisions, ChildRunEdits childEdits,
      DecisionSpans spans, Escapes escapes, ModelQueue queue) {
    this.queue = queue;
    this.childEdits = childEdits;
    this.store = store;
    this.access = access;
    this.changes = changes;
    LoopJump jump = new LoopJump(engine.getRuntimeService(), engine.getRepositoryService());
    this.edits = new StepEdits(engine.getRuntimeService(), surgery, contents, jump, changes, spans);
    this.regenerations = new AnswerRegenerations(engine.getRuntimeService(), surgery, jump, changes, decisions, spans);
    this.stops = new RunStops(engine.getRuntimeService(), engine.getExternalTaskService(), store, jump, changes, decisions, spans);
    this.inFlow = new InFlowChanges(store, edits, regenerations);
    this.treeStops = new TreeStops(engine.getRuntimeService(), store, jump, changes, stops, escapes);
  }

  /**
   * Replaces step {@code stepNo} of a running or waiting run by the edited one and continues the
   * run from it: at {@code think} after an edited thought, observation, plan or human input, at
   * {@code act} (or {@code approveAction}) while calls of the edited step's turn are unobserved. In a
   * conversation, the later turns leave the path with the rest of it; with {@link StepEdit#replayLaterTurns}
   * their questions are asked again on the new branch, in order.
   *
   * @throws dev.agentloop.api.UnknownRunException, UnknownStepException (404)
   * @throws InvalidEditException bad content or arguments (400)
   * <p>A finished run that answered another agent's call (a child run) is started again from the edited step instead,
   * and its new answer replaces its caller's observation of the call when it ends ({@link ChildRunEdits}); the result
   * then names the run started again.
   *
   * @throws ResumeConflictException stale base version, superseded step, ended run (409)
   * @throws org.camunda.bpm.engine.AuthorizationException when the user may not (403)
   */
  public ResumeResult edit(StepEdit edit) {
    access.requireChange(edit.runId());
    // read once and locked; a finished run that answered another agent's call is started again from the edit, for
    // its caller, and any other finished run refused
    return edits.edit(edit).or(() -> childEdits.reopen(edit, this))
        .orElseThrow(() -> RunChanges.ended(store.run(edit.runId()), "be edited"));
  }

  /**
   * A new attempt at the final answer the run waits with (in answer review): the answer stays
   * stored, superseded, and the model thinks again from the step before it.
   *
   * @param reason why, kept with the answer's decision for the trace; may be blank */
  public ResumeResult regenerate(String runId, String author, String reason) {
    return regenerate(runId, null, false, author, reason);
  }

  /**
   * A new answer to turn {@code turn} of a conversation (the newest turn when {@code null}): a new
   * branch from the step before that turn's answer; the later turns stay stored on the old branch.
   * With {@code replayLaterTurns} their questions are asked again on the new branch, in order, each
   * as a new turn once the answer before it is accepted; without, they are dropped.
   *
   * @throws UnknownStepException when the run has no such turn (404)
   * @throws ResumeConflictException when the run has ended or the turn has no answer yet (409)
   */
  public ResumeResult regenerate(String runId, Integer turn, boolean replayLaterTurns, String author, String reason) {
    access.requireChange(runId);
    return turn == null
        ? regenerations.regenerateNewest(runId, author, reason)
        : regenerations.regenerate(runId, turn, replayLaterTurns, author, reason);
  }

  /** The door for the changes people make inside the flow, in review forms. */
  public InFlowChanges inFlow() {
    return inFlow;
  }

  /**
   * Ends a running or waiting run with status STOPPED and the reason. Calls of the current turn
   * without an observation get one saying so, so that no call is left unanswered in the trace; the
   * trace ends with the person's note. The run ends through its diagram's {@code stopped} end event, so
   * that a business process that called it continues (with the run's outcome {@code STOPPED}); a diagram
   * without that end event has its instance deleted, which Camunda does to a calling process too, so such a
   * run is not stopped while another process waits for it.
   *
   * @throws ResumeConflictException when the run has ended, or is called by a process and has no {@code stopped}
   *     end event
   */
  public void stop(String runId, String reason, String author) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidEditException("say why the run is stopped (reason): it is kept as the run's status reason");
    }
    access.requireChange(runId);
    stops.stop(runId, reason, author);
    // a model call the run queued for is not sent, and leaves the queue now rather than when its turn comes
    afterCommit(() -> queue.recheck(runId));
  }

  private static void afterCommit(Runnable action) {
    if (!TransactionSynchronizationManager.isSynchronizationActive()) {
      action.run();
      return;
    }
    TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
      @Override
      public void afterCommit() {
        action.run();
      }
    });
  }

  /**
   * {@link #stop} by the run's client: who started the run may stop it too (as it may ask it follow-ups), besides
   * those who may change its course, e.g. an A2A client cancelling its task.
   *
   * @throws ResumeConflictException when the run has ended, as for {@link #stop}
   */
  public void cancel(String runId, String reason, String author) {
    if (!access.startedRun(runId)) {
      access.requireChange(runId);
    }
    stops.stop(runId, reason, author);
    afterCommit(() -> queue.recheck(runId));
  }

  /** The new answer of a child run started again after an edit replaces its caller's observation of the call. */
  @TransactionalEventListener(fallbackExecution = true)
  public void onChildRunEnded(ChildRunEnded ended) {
    // after the child's transaction: a new one for the caller, which the child's end must not wait for or roll back
    changes.applyAfterCommit(() -> childEdits.takeAnswer(ended, this));
  }

  /**
   * The budget of a run's tree is spent (announced by a run below it, outside any transaction): the run goes to
   * {@code agentStuck}, naming the run that asked for more, and the runs it called stop.
   */
  @TransactionalEventListener(fallbackExecution = true)
  public void onCallerBudgetSpent(CallerBudgetSpent spent) {
    treeStops.budgetSpent(spent);
  }

  /** A child run failed or ran out of time: it is stopped with why, after the transaction that found it. */
  @TransactionalEventListener(fallbackExecution = true)
  public void onChildRunCannotFinish(ChildRunCannotFinish child) {
    changes.applyAfterCommit(() -> treeStops.cannotFinish(child));
  }

  /** What the current user may do with the run now. */
  public RunActions actions(String runId) {
    RunRecord run = store.run(runId);
    boolean finished = run.status().isFinished();
    boolean mayChange = !finished && access.mayChange(runId);
    boolean answerWaiting = !finished && run.head().headStep() != null
        && store.findStep(runId, run.head().headStep()).map(s -> s.kind() == StepKind.FINAL_ANSWER).orElse(false);
    boolean mayRestart = finished && access.mayRestart();
    String why = finished
        ? (mayRestart ? "the run has ended: restart it from a step" : "the run has ended; only operators restart runs")
        : !mayChange ? "only agent-operators, or reviewers while the run waits on their task, change a run"
        : !answerWaiting ? "there is no final answer to regenerate yet" : null;
    return new RunActions(mayChange, mayChange && answerWaiting, mayChange, mayRestart, why);
  }
}
