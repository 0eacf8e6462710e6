package dev.agentloop.internal.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.budget.Budget;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes runs and their steps, and reads them ({@link StepReads}). Writes join the caller's transaction (the
 * engine's, when called from a worker completion or a listener) or open their own. Writing a step costs one insert
 * and one update of the run's head, however long the run is; reading the recent path costs one
 * indexed query.
 *
 * <p>The one door to the trace for the other packages: the runs' rows are {@link RunRecords}, the reads of
 * steps {@link PathReads}, their writes {@link StepWrites}. A caller that only reads takes a {@link StepReads}.
 *
 * <p>Thread-safe. Times come from Camunda's clock, so tests that move the engine clock see the
 * same time in the trace.
 */
public class StepStore extends StepReads {

  private final StepWrites writes;
  private final RunWatchers watchers;

  public StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json) {
    this(jdbc, transactionManager, json, new RunWatchers());
  }

  /** @param watchers told of every change of a run written here, for those who follow runs in this JVM */
  public StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json,
      RunWatchers watchers) {
    this(jdbc, transactionManager, json, watchers, new StepRows(json));
  }

  private StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json,
      RunWatchers watchers, StepRows rows) {
    super(new RunRecords(jdbc, rows), new PathReads(jdbc, rows));
    this.watchers = watchers;
    this.writes = new StepWrites(jdbc, new TransactionTemplate(transactionManager), rows, new PromptArchive(jdbc, json),
        runs, paths);
  }

  public void createRun(String runId, String agentKey, String question) {
    createRun(runId, agentKey, question, List.of(), null, null);
  }

  /**
   * A run, also one that another agent's call starts or one with a budget of its own.
   *
   * @param callers the runs whose calls led to it, the top-level run first; empty for a run no agent called
   * @param budget its budget where it is not its agent's, else {@code null}
   * @param answerSchema the answer schema the run's start gave, as JSON; {@code null}: the agent's own
   */
  public void createRun(String runId, String agentKey, String question, List<String> callers, Budget budget,
      String answerSchema) {
    runs.create(runId, agentKey, question, callers, budget, answerSchema);
    watchers.changed(runId);
  }

  /** A person raised the run's budget (in {@code agentStuck}): it holds for all the run's later turns. */
  public void raiseBudget(String runId, Budget budget) {
    runs.raiseBudget(runId, budget);
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
   * Whether this JVM wrote the run past {@code head} since (e.g. a listener of the same task completion, after the
   * task's own steps): a state handed on at that head is no longer the run's. Another node's writes are not known here.
   */
  public boolean movedPast(RunHead head) {
    return writes.movedPast(head);
  }

  /** Who is told of the changes written here, to follow a run in this JVM. */
  public RunWatchers watchers() {
    return watchers;
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
   * Moves the head back to a step of the active path, as the caller read it (with the run's {@link RunState}):
   * had the path moved since, the head's version refuses the write. The steps after it stay stored, marked
   * superseded, and the next step written hangs below {@code to} as a new branch.
   *
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is changed
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
