package dev.agentloop.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.Steps;
import dev.agentloop.agent.compose.ChildRunEnded;
import dev.agentloop.agent.definition.AgentSettings;
import dev.agentloop.agent.loop.LoopStateReader;
import dev.agentloop.agent.loop.Turn;
import dev.agentloop.agent.run.ReplayQueue;
import dev.agentloop.api.RunStatus;
import dev.agentloop.security.RunAccess;
import dev.agentloop.telemetry.DecisionSpans;
import dev.agentloop.trace.DecisionLog;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.RunState;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.trace.step.Observation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * The one place where people change the course of a run from outside it (REST API, Cockpit plugin,
 * an embedding application): edit a step and continue from it, regenerate the final answer, stop
 * the run; restarting a finished run from a step is in {@link RunRestarts}. Each call is one
 * transaction: the trace surgery and the process instance modification are applied together or not
 * at all. Concurrent changes of one run: the first wins, the others get a
 * {@link ResumeConflictException} and change nothing. Thread-safe.
 */
public class ResumeService {

  private final ProcessEngine engine;
  private final StepStore store;
  private final LoopStateReader reader;
  private final TraceSurgery surgery;
  private final EditedContent contents;
  private final LoopJump jump;
  private final RunAccess access;
  private final RunChanges changes;
  private final DecisionLog decisions;
  private final ChildRunEdits childEdits;
  private final DecisionSpans spans;

  ResumeService(ProcessEngine engine, StepStore store, LoopStateReader reader, TraceSurgery surgery,
      EditedContent contents, RunAccess access, RunChanges changes, DecisionLog decisions, ChildRunEdits childEdits,
      DecisionSpans spans) {
    this.childEdits = childEdits;
    this.spans = spans;
    this.engine = engine;
    this.store = store;
    this.decisions = decisions;
    this.reader = reader;
    this.surgery = surgery;
    this.contents = contents;
    this.jump = new LoopJump(engine.getRuntimeService(), engine.getRepositoryService());
    this.access = access;
    this.changes = changes;
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
    // a finished run that answered another agent's call is started again from the edit, for its caller
    Optional<ResumeResult> reopened = childEdits.reopen(edit, this);
    if (reopened.isPresent()) {
      return reopened.get();
    }
    ResumeResult edited = changes.apply(edit.runId(), () -> {
      RunRecord run = changes.unfinished(edit.runId(), "be edited");
      Step original = activeStep(run.runId(), edit.stepNo());
      if (run.head().version() != edit.baseVersion()) {
        throw new ResumeConflictException("run " + run.runId() + " moved on since version " + edit.baseVersion()
            + " (it is at version " + run.head().version() + " now): read its trace again and edit on that");
      }
      AgentSettings settings = changes.settings(run.runId());
      TraceSurgery.Outcome outcome = surgery.replace(run,
          original, contents.replacement(original, edit.content(), edit.author(), edit.reason(), settings), settings);
      jump.to(run.runId(), outcome.continuation(), variablesFor(outcome.continuation(), settings));
      List<ReplayQueue.Question> later = TurnRegeneration.laterQuestions(store, run.runId(), original,
          outcome.superseded());
      if (!later.isEmpty()) {
        TurnRegeneration.queue(engine.getRuntimeService(), run.runId(), edit.replayLaterTurns() ? later : List.of());
      }
      return result(run.runId(), original.stepNo(), outcome);
    });
    spans.decided(edit.runId(), "edit", edit.author(), edit.reason());
    return edited;
  }

  /**
   * The trace side of an edit a person makes inside the flow, in a form (answer review): the same
   * surgery as {@link #edit}, in the task completion's transaction and without modification; the
   * diagram's gateways take the run where the result says. The form has read the run and the step; they
   * are used as handed, once the run, locked as for {@link #edit}, is found still at the version read.
   *
   * @throws InvalidEditException, ResumeConflictException as {@link #edit}
   */
  public Continuation editInFlow(RunState read, Step original, JsonNode content, String reason, String author) {
    String runId = read.runId();
    RunRecord run = changes.unfinished(runId, "be edited");
    if (run.head().version() != read.head().version()) {
      throw new ResumeConflictException("run " + runId + " changed while the form was submitted (it is at version "
          + run.head().version() + " now, the form read version " + read.head().version() + "): nothing was edited;"
          + " open the task again");
    }
    requireActive(original);
    AgentSettings settings = changes.settings(runId);
    return surgery.replace(read, original, contents.replacement(original, content, author, reason, settings), settings)
        .continuation();
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
    if (turn == null) {
      return regenerateNewest(runId, author, reason);
    }
    access.requireChange(runId);
    ResumeResult regenerated = changes.apply(runId, () -> {
      RunState run = changes.unfinishedState(runId, "regenerate an answer");
      TurnRegeneration.Target target = TurnRegeneration.target(run, turn);
      TraceSurgery.Outcome outcome = surgery.regenerate(run, target.answer());
      decisions.record(runId, target.answer().stepNo(), "regenerate", author, reason);
      // the new answer's review is headed by the question it answers, not by the newest turn's
      jump.to(runId, outcome.continuation(), ReactAgentProcess.QUESTION.with(target.question()));
      TurnRegeneration.queue(engine.getRuntimeService(), runId, replayLaterTurns ? target.later() : List.of());
      return result(runId, target.answer().stepNo(), outcome);
    });
    spans.decided(runId, "regenerate", author, reason);
    return regenerated;
  }

  /**
   * The trace side of redoing an earlier turn from a form (answer review): the same surgery as
   * {@link #regenerate(String, Integer, boolean, String, String)} with a turn, in the task completion's
   * transaction and without modification (the diagram's regenerate path takes the run to {@code think}); the later
   * turns' questions, the reviewed one's among them, are queued on {@code execution} or dropped. The form has
   * read the run; it is used as handed. The caller records the decision.
   *
   * @return the answer replaced: turn {@code turn}'s
   * @throws UnknownStepException when the run has no such turn
   * @throws ResumeConflictException when the turn has no answer yet
   */
  public Step regenerateInFlow(RunState run, int turn, boolean replayLaterTurns, VariableScope execution) {
    TurnRegeneration.Target target = TurnRegeneration.target(run, turn);
    surgery.regenerate(run, target.answer());
    TurnRegeneration.queue(execution, replayLaterTurns ? target.later() : List.of());
    ReactAgentProcess.QUESTION.set(execution, target.question());
    return target.answer();
  }

  private ResumeResult regenerateNewest(String runId, String author, String reason) {
    access.requireChange(runId);
    ResumeResult regenerated = changes.apply(runId, () -> {
      RunState run = changes.unfinishedState(runId, "regenerate its answer");
      Step head = run.headStep().orElse(null);
      if (head == null || head.kind() != StepKind.FINAL_ANSWER || head.parentNo() == null) {
        throw new ResumeConflictException("run " + runId + " has no final answer to regenerate yet; its newest step"
            + " is " + (head == null ? "none" : head.stepNo() + " (" + head.kind() + ")"));
      }
      TraceSurgery.Outcome outcome = surgery.regenerate(run, head);
      decisions.record(runId, head.stepNo(), "regenerate", author, reason);
      jump.to(runId, outcome.continuation(), Map.of());
      return result(runId, head.stepNo(), outcome);
    });
    spans.decided(runId, "regenerate", author, reason);
    return regenerated;
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
    changes.apply(runId, () -> {
      RunRecord run = changes.unfinished(runId, "be stopped");
      if (run.head().headStep() != null) {
        decisions.record(runId, run.head().headStep(), "stop", author, reason);
      }
      // while the run still has its trace context: it ends here
      spans.decided(runId, "stop", author, reason);
      String stopped = "stopped by " + author + ": " + reason;
      List<NewStep> steps = new ArrayList<>();
      reader.read(runId, Turn.WINDOW).turn().open().forEach(call -> steps.add(Steps.observation(
          Observation.error(call, "no result: the run was " + stopped), Steps.AGENTLOOP)));
      steps.add(Steps.humanInput("Stopped: " + reason, author, "run stopped"));
      store.append(run.head(), steps, Usage.NONE);
      RuntimeService runtime = engine.getRuntimeService();
      runtime.setVariables(runId, ReactAgentProcess.STATUS_REASON.with(stopped));
      if (!jump.end(runId, ReactAgentProcess.STOPPED)) {
        requireNoCaller(runId);
        runtime.deleteProcessInstance(runId, stopped, false, true);
        store.markEnded(runId, RunStatus.STOPPED, stopped);
      }
      return null;
    });
  }

  private void requireNoCaller(String runId) {
    if (engine.getRuntimeService().createProcessInstanceQuery().subProcessInstanceId(runId).count() > 0) {
      throw new ResumeConflictException("run " + runId + " was started by another process, and its diagram has no"
          + " end event '" + ReactAgentProcess.STOPPED + "' to end through: stopping it would delete the calling"
          + " process too. Add that end event to the agent's diagram, or stop the calling process");
    }
  }

  /** The new answer of a child run started again after an edit replaces its caller's observation of the call. */
  @TransactionalEventListener(fallbackExecution = true)
  public void onChildRunEnded(ChildRunEnded ended) {
    // after the child's transaction: a new one for the caller, which the child's end must not wait for or roll back
    changes.applyAfterCommit(() -> childEdits.takeAnswer(ended, this));
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

  private ResumeResult result(String runId, int editedStep, TraceSurgery.Outcome outcome) {
    return new ResumeResult(runId, editedStep, outcome.newStep(), outcome.version(),
        outcome.continuation().elementId(), outcome.superseded(), outcome.sideEffects());
  }

  private Step activeStep(String runId, int stepNo) {
    return requireActive(store.findStep(runId, stepNo)
        .orElseThrow(() -> new UnknownStepException("run " + runId + " has no step " + stepNo)));
  }

  private static Step requireActive(Step step) {
    if (!step.isActive()) {
      throw new ResumeConflictException("step " + step.stepNo() + " of run " + step.runId() + " is on a superseded"
          + " branch; edit a step of the active path (GET /api/runs/" + step.runId() + "/trace)");
    }
    return step;
  }

  /** {@code askHuman}'s timer reads its timeout from a transient variable, as when {@code think} routes there. */
  static Map<String, Object> variablesFor(Continuation continuation, AgentSettings settings) {
    return continuation == Continuation.ASK_HUMAN
        ? ReactAgentProcess.ASK_HUMAN_TIMEOUT.transientWith(settings.askHumanTimeout().toString())
        : Map.of();
  }
}
