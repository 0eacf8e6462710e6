package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.budget.Budget;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads and writes runs and their steps. Writes join the caller's transaction (the engine's, when
 * called from a worker completion or a listener) or open their own. Writing a step costs one insert
 * and one update of the run's head, however long the run is; reading the recent path costs one
 * indexed query.
 *
 * <p>The one door to the trace for the other packages: the runs' rows are {@link RunRecords}, the reads of
 * steps {@link PathReads}, their writes {@link StepWrites}.
 *
 * <p>Thread-safe. Times come from Camunda's clock, so tests that move the engine clock see the
 * same time in the trace.
 */
public class StepStore {

  private final RunRecords runs;
  private final PathReads paths;
  private final StepWrites writes;
  private final RunWatchers watchers;

  public StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json) {
    this(jdbc, transactionManager, json, new RunWatchers());
  }

  /** @param watchers told of every change of a run written here, for those who follow runs in this JVM */
  public StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json,
      RunWatchers watchers) {
    this.watchers = watchers;
    StepRows rows = new StepRows(json);
    this.runs = new RunRecords(jdbc, rows);
    this.paths = new PathReads(jdbc, rows);
    this.writes = new StepWrites(jdbc, new TransactionTemplate(transactionManager), rows, new PromptArchive(jdbc, json),
        runs, paths);
  }

  public void createRun(String runId, String agentKey, String question) {
    createRun(runId, agentKey, question, List.of(), null, null);
  }

  /** @param answerSchema the answer schema the run's start gave, as JSON; {@code null}: the agent's own */
  public void createRun(String runId, String agentKey, String question, String answerSchema) {
    createRun(runId, agentKey, question, List.of(), null, answerSchema);
  }

  /**
   * A run that another agent's call starts, or one with a budget of its own.
   *
   * @param callers the runs whose calls led to it, the top-level run first; empty for a run no agent called
   * @param budget its budget where it is not its agent's, else {@code null}
   */
  public void createRun(String runId, String agentKey, String question, List<String> callers, Budget budget) {
    createRun(runId, agentKey, question, callers, budget, null);
  }

  /** @param answerSchema the answer schema the run's start gave, as JSON; {@code null}: the agent's own */
  public void createRun(String runId, String agentKey, String question, List<String> callers, Budget budget,
      String answerSchema) {
    runs.create(runId, agentKey, question, callers, budget, answerSchema);
    watchers.changed(runId);
  }

  /** A person raised the run's budget (in {@code agentStuck}): it holds for all the run's later turns. */
  public void raiseBudget(String runId, Budget budget) {
    runs.raiseBudget(runId, budget);
  }

  public Optional<RunRecord> findRun(String runId) {
    return runs.find(runId);
  }

  public RunRecord run(String runId) {
    return runs.get(runId);
  }

  /**
   * The run, its row locked until the surrounding transaction ends: the changes people make to one
   * run (edit, regenerate, stop) queue behind each other, so none reads a path that another one is
   * rewriting at that moment. The agent's own steps need no lock: the versioned head refuses a stale one.
   */
  public RunRecord lockRun(String runId) {
    return runs.lock(runId);
  }

  /**
   * The run and all its steps, read once for a command that changes it: one query for the run, one for
   * the steps. Not locked: a write against its head fails when the run moved meanwhile; a command that
   * queues behind other changes locks the run ({@link #lockRun}) and reads {@link #allSteps} after it.
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

  /** Who is told of the changes written here, to follow a run in this JVM. */
  /**
   * Whether this JVM wrote the run past {@code head} since (e.g. a listener of the same task completion, after the
   * task's own steps): a state handed on at that head is no longer the run's. Another node's writes are not known here.
   */
  public boolean movedPast(RunHead head) {
    return writes.movedPast(head);
  }

  public RunWatchers watchers() {
    return watchers;
  }

  /** Every step of the run, superseded branches included, in the order they were written. */
  public List<Step> allSteps(String runId) {
    return paths.allSteps(runId);
  }

  /**
   * Appends steps as a chain below the expected head and moves the head to the last of them.
   *
   * @return the steps as stored and the new head, so that the caller can go on without reading them back
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is written
   */
  public Appended append(RunHead expected, List<NewStep> steps, Usage usage) {
    var written = writes.append(expected, steps, usage);
    watchers.changed(expected.runId());
    return written;
  }

  /**
   * Keeps the steps of a model call or of tool calls that ended after their run had left the loop (its run-time
   * budget fired, a person stopped or moved it): the call was paid for, so its steps are stored off the
   * active path (superseded, below the step the call was made after, with the reason) and its cost
   * counts in the run's figures; the head does not move, and nothing the run does next sees them.
   * The steps only while nobody else wrote the run since {@code madeOn} (or it was stopped): when a person
   * edited it, or another node did the same step again after our lock expired, writing beside their steps
   * would make their next write stale; the cost counts all the same, since the calls were made.
   *
   * @return whether the steps were kept (else only their cost was counted)
   */
  public boolean keepLate(RunHead madeOn, List<NewStep> steps, Usage usage, String reason) {
    var written = writes.keepLate(madeOn, steps, usage, reason);
    watchers.changed(madeOn.runId());
    return written;
  }

  /**
   * Replaces a step of the active path by a new branch: {@code steps} are written as a chain below
   * the replaced step's parent, the first of them superseding it; the replaced step and everything
   * after it stay stored, marked superseded; the head moves to the last new step. Nothing is deleted.
   *
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is changed
   * @throws IllegalArgumentException when {@code replaced} is not on the active path
   */
  public Appended branch(RunHead expected, Step replaced, List<NewStep> steps) {
    var written = writes.branch(expected, replaced, steps);
    watchers.changed(expected.runId());
    return written;
  }

  /**
   * Moves the head back to a step of the active path; the steps after it stay stored, marked
   * superseded, and the next step written hangs below {@code toStep} as a new branch.
   *
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is changed
   * @throws IllegalArgumentException when {@code toStep} is not on the active path
   */
  public RunHead rewind(RunHead expected, int toStep) {
    var written = writes.rewind(expected, toStep);
    watchers.changed(expected.runId());
    return written;
  }

  /**
   * {@link #rewind(RunHead, int)} to a step as the caller read it (with the run's {@link RunState}): had the
   * path moved since, the head's version refuses the write.
   *
   * @throws IllegalArgumentException when {@code to} was not on the active path
   */
  public RunHead rewind(RunHead expected, Step to) {
    var written = writes.rewind(expected, to);
    watchers.changed(expected.runId());
    return written;
  }

  /**
   * Starts the trace of a restarted run as a copy of another run's path (root first): same kinds,
   * contents, authors and times, numbered from 1, linked to where it came from. The restarted run
   * must have been created and be empty.
   */
  public RunHead copyPath(String runId, List<Step> path, RunRecord.Restart restart) {
    var written = writes.copyPath(runId, path, restart);
    watchers.changed(runId);
    return written;
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

  /** Records how a run ended; the trace itself is untouched. */
  public void markEnded(String runId, RunStatus status, String reason) {
    runs.markEnded(runId, status, reason);
    watchers.changed(runId);
  }

  /** Now by Camunda's clock, as every time the trace stores. */
  static OffsetDateTime now() {
    return ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
  }
}
