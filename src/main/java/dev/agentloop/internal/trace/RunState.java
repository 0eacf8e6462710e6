package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import dev.agentloop.internal.trace.step.FollowUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one command that changes a run (a review decision, a regenerate, a follow-up) knows of it: the
 * run and every step of its tree, read once ({@link StepStore#state}, or after {@link StepStore#lockRun}) and
 * handed down, so that the layers below take the active path, the newest step of a kind or the turns from
 * here instead of reading the store again (each view is derived anew, in memory). A command that writes hands
 * the store the head read here: had the run moved meanwhile, the head's version refuses the write.
 *
 * @param steps every step of the run, superseded branches included, by number from 1 (as the store numbers
 *     them: the step numbered n is the n-th)
 */
public record RunState(RunRecord run, List<Step> steps) {

  public RunState {
    Objects.requireNonNull(run, "run");
    steps = List.copyOf(steps);
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      if (step.stepNo() != i + 1 || !step.runId().equals(run.runId())) {
        throw new IllegalArgumentException("step " + step.stepNo() + " of run " + step.runId() + " is not step "
            + (i + 1) + " of run " + run.runId() + ": a run's state holds all its steps, in order");
      }
    }
  }

  public String runId() {
    return run.runId();
  }

  /** The head the run was at when it was read: what the command's write goes against. */
  public RunHead head() {
    return run.head();
  }

  /** The active path, root first. */
  public List<Step> activePath() {
    return steps.stream().filter(Step::isActive).toList();
  }

  /** Step {@code stepNo}, on any branch. */
  public Optional<Step> step(int stepNo) {
    return stepNo < 1 || stepNo > steps.size() ? Optional.empty() : Optional.of(steps.get(stepNo - 1));
  }

  /** The step the head is at; empty before the first step. */
  public Optional<Step> headStep() {
    return run.head().headStep() == null ? Optional.empty() : step(run.head().headStep());
  }

  /** The newest step of a kind on the active path. */
  public Optional<Step> latestActive(StepKind kind) {
    return newest(activePath().stream().filter(step -> step.kind() == kind).toList());
  }

  /** The follow-up question that opened the current turn of a conversation; empty in the first turn. */
  public Optional<Step> latestFollowUp() {
    return newest(activePath().stream().filter(step -> step.content() instanceof FollowUp).toList());
  }

  /**
   * What a conversation's turns are made of, root first: the follow-up questions and final answers of the
   * active path ({@code activeOnly}) or of every branch, as {@link StepStore#questionsAndAnswers} reads them.
   */
  public List<Step> questionsAndAnswers(boolean activeOnly) {
    return (activeOnly ? activePath() : steps).stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER || step.content() instanceof FollowUp).toList();
  }

  /**
   * The state after the command appended steps below the head ({@link StepStore#append}, not a branch): the
   * new head, and the steps at the end of the active path.
   */
  public RunState after(Appended appended) {
    List<Step> all = new ArrayList<>(steps);
    all.addAll(appended.steps());
    return new RunState(run.advancedTo(appended.head(), Usage.NONE), all);
  }

  private static Optional<Step> newest(List<Step> steps) {
    return steps.isEmpty() ? Optional.empty() : Optional.of(steps.get(steps.size() - 1));
  }

  /** Which run at which version: a run's steps are its trace, not a line of a log. */
  @Override
  public String toString() {
    return "RunState[" + run.runId() + " at version " + run.head().version() + ", " + steps.size() + " steps]";
  }
}
