package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Reads runs and their steps: what views, followers and the agent's next turn look up. {@link StepStore} adds the
 * writes; a caller that only reads takes this type, and the store is one. Each read is one indexed query.
 * Thread-safe.
 */
public class StepReads {

  final RunRecords runs;
  final PathReads paths;

  StepReads(RunRecords runs, PathReads paths) {
    this.runs = runs;
    this.paths = paths;
  }

  public Optional<RunRecord> findRun(String runId) {
    return runs.find(runId);
  }

  public RunRecord run(String runId) {
    return runs.get(runId);
  }

  /**
   * The run and all its steps, read once for a command that changes it: one query for the run, one for
   * the steps. Not locked: a write against its head fails when the run moved meanwhile; a command that
   * queues behind other changes locks the run ({@link StepStore#lockRun}) and reads {@link #allSteps} after it.
   */
  public RunState state(String runId) {
    RunRecord run = run(runId);
    return new RunState(run, allSteps(runId));
  }

  /** The active path, root first. */
  public List<Step> activePath(String runId) {
    return paths.activePath(runId);
  }

  /** The active path from step {@code fromStep} on (by number), root first: what an edit there touches. */
  public List<Step> activePathFrom(String runId, int fromStep) {
    return paths.activePathFrom(runId, fromStep);
  }

  /** The last {@code limit} steps of the active path, root first: what the next model call needs. */
  public List<Step> recentPath(String runId, int limit) {
    return paths.recentPath(runId, limit);
  }

  /** The newest step of a kind on the active path. */
  public Optional<Step> latestActive(String runId, StepKind kind) {
    return paths.latestActive(runId, kind);
  }

  /**
   * The newest follow-up question on the active path ({@link dev.agentloop.internal.trace.step.FollowUp}), which opens the current
   * turn of a conversation; empty while the run is in its first turn.
   */
  public Optional<Step> latestFollowUp(String runId) {
    return paths.latestFollowUp(runId);
  }

  /**
   * What a conversation's turns are made of, on one path, root first: the follow-up questions and
   * the final answers of the active path ({@code activeOnly}) or of every branch.
   */
  public List<Step> questionsAndAnswers(String runId, boolean activeOnly) {
    return paths.questionsAndAnswers(runId, activeOnly);
  }

  /** How many steps of a kind hang directly below a step, on any branch (e.g. earlier answers). */
  public int countChildren(String runId, int parentNo, StepKind kind) {
    return paths.countChildren(runId, parentNo, kind);
  }

  /**
   * The steps written after step {@code stepNo} (by number, so in the order they were written), superseded ones
   * included: what a follower of the run has not seen yet.
   */
  public List<Step> stepsAfter(String runId, int stepNo) {
    return paths.stepsAfter(runId, stepNo);
  }

  /** Every step of the run, superseded branches included, in the order they were written. */
  public List<Step> allSteps(String runId) {
    return paths.allSteps(runId);
  }

  /** The runs restarted from this one, oldest first. */
  public List<String> restartsOf(String runId) {
    return runs.restartsOf(runId);
  }

  /** The most recent runs of an agent, newest first; only finished ones when {@code finished}. */
  public List<RunRecord> recentRuns(String agentKey, boolean finished, int limit) {
    return runs.recent(agentKey, finished, limit);
  }

  public Optional<Step> findStep(String runId, int stepNo) {
    return paths.find(runId, stepNo);
  }

  /** The superseded observations of the run written by one of these tools: calls that ran on an abandoned branch. */
  public List<Step> supersededRunsOf(String runId, Collection<String> tools) {
    return paths.supersededRunsOf(runId, tools);
  }
}
