package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import java.util.List;
import org.camunda.bpm.engine.delegate.VariableScope;

/**
 * The door of {@link ResumeService} for changes a person makes inside the flow: a decision in a review form
 * (plan, answer, ask-human, approval, agent stuck). They run in the task completion's transaction and move the run
 * through the diagram's gateways, not by modification; each takes the run as the form read it once, and writes
 * at that head, so a run changed since fails the completion instead of being changed twice. Reviews write the trace
 * only through here.
 */
public final class InFlowChanges {

  private final StepStore store;
  private final StepEdits edits;
  private final AnswerRegenerations regenerations;

  InFlowChanges(StepStore store, StepEdits edits, AnswerRegenerations regenerations) {
    this.store = store;
    this.edits = edits;
    this.regenerations = regenerations;
  }

  /** A person's steps (a note, feedback, a plan of theirs, observations they decided) after the head read. */
  public RunState append(RunState read, List<NewStep> steps) {
    return append(read, steps, Usage.NONE);
  }

  /** @param usage the calls the steps stand for, e.g. an agent's answer observed for a call that was cancelled */
  public RunState append(RunState read, List<NewStep> steps, Usage usage) {
    return read.after(store.append(read.head(), steps, usage));
  }

  /** Steps that supersede {@code replaced} on a new branch, e.g. the answer's fields as the reviewer corrected them. */
  public Appended branch(RunState read, Step replaced, List<NewStep> steps) {
    return store.branch(read.head(), replaced, steps);
  }

  /** A person's steps after the branch the same decision wrote, e.g. a follow-up question to the corrected answer. */
  public void append(Appended branched, List<NewStep> steps) {
    store.append(branched.head(), steps, Usage.NONE);
  }

  /** Takes the path back to {@code to}: the steps after it stay stored, superseded (an answer sent back). */
  public void rewind(RunState read, Step to) {
    store.rewind(read.head(), to);
  }

  /** A person granted the run more than its budget allowed. */
  public void raiseBudget(String runId, Budget raised) {
    store.raiseBudget(runId, raised);
  }

  /**
   * The trace side of an edit a person makes in a form (answer review, agent stuck): the same surgery as
   * {@link ResumeService#edit}, without modification; the diagram's gateways take the run where the result says.
   * The form has read the run and the step; they are used as handed, once the run, locked as for an edit, is found
   * still at the version read.
   *
   * @throws InvalidEditException, ResumeConflictException as {@link ResumeService#edit}
   */
  public Continuation edit(RunState read, Step original, JsonNode content, String reason, String author) {
    return edits.editInFlow(read, original, content, reason, author);
  }

  /**
   * The trace side of redoing an earlier turn from a form (answer review): the same surgery as
   * {@link ResumeService#regenerate(String, Integer, boolean, String, String)} with a turn, without modification
   * (the diagram's regenerate path takes the run to {@code think}); the later turns' questions, the reviewed one's
   * among them, are queued on {@code execution} or dropped. The caller records the decision.
   *
   * @return the answer replaced: turn {@code turn}'s
   * @throws UnknownStepException when the run has no such turn
   * @throws ResumeConflictException when the turn has no answer yet
   */
  public Step regenerate(RunState read, int turn, boolean replayLaterTurns, VariableScope execution) {
    return regenerations.regenerateInFlow(read, turn, replayLaterTurns, execution);
  }
}
