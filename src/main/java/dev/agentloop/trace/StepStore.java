package dev.agentloop.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.trace.step.FollowUp;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads and writes runs and their steps. Writes join the caller's transaction (the engine's, when
 * called from a worker completion or a listener) or open their own. Writing a step costs one insert
 * and one update of the run's head, however long the run is; reading the recent path costs one
 * indexed query.
 *
 * <p>Thread-safe. Times come from Camunda's clock, so tests that move the engine clock see the
 * same time in the trace.
 */
public class StepStore {

  static final String STEP_COLUMNS =
      "run_id, step_no, parent_no, kind, turn, content, status, author, created_at, supersedes, reason";
  /** A step's row: the step, and what the call that wrote it cost ({@link RunInsights#costs}). */
  private static final String ROW_COLUMNS = STEP_COLUMNS
      + ", cost_model_call, cost_latency_ms, cost_prompt_tokens, cost_completion_tokens, cost_total_tokens"
      + ", cost_cache_read_tokens, cost_cache_write_tokens, cost_model";

  /** Narrows the rows to read to those that may be follow-ups; the content read decides. */
  static final String FOLLOW_UP_PATTERN = "%\"" + StepJson.FOLLOW_UP + "\"%";

  private final JdbcTemplate jdbc;
  private final TransactionTemplate transaction;
  private final StepRows rows;
  private final RowMapper<Step> stepMapper;
  private final RowMapper<RunRecord> runMapper;
  private final PromptArchive prompts;

  public StepStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ObjectMapper json) {
    this.jdbc = jdbc;
    this.transaction = new TransactionTemplate(transactionManager);
    this.rows = new StepRows(json);
    this.stepMapper = rows::step;
    this.runMapper = rows::run;
    this.prompts = new PromptArchive(jdbc, json);
  }

  public void createRun(String runId, String agentKey, String question) {
    jdbc.update(
        "INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
            + " model_calls, tool_calls, tokens, created_at) VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?)",
        runId, agentKey, StoredText.of(question), RunStatus.RUNNING.name(), now());
  }

  Optional<RunRecord> findRun(String runId) {
    return jdbc.query("SELECT * FROM agentloop_run WHERE run_id = ?", runMapper, runId).stream().findFirst();
  }

  public RunRecord run(String runId) {
    return findRun(runId).orElseThrow(() -> new UnknownRunException(runId));
  }

  /**
   * The run, its row locked until the surrounding transaction ends: the changes people make to one
   * run (edit, regenerate, stop) queue behind each other, so none reads a path that another one is
   * rewriting at that moment. The agent's own steps need no lock: the versioned head refuses a stale one.
   */
  public RunRecord lockRun(String runId) {
    return jdbc.query("SELECT * FROM agentloop_run WHERE run_id = ? FOR UPDATE", runMapper, runId).stream()
        .findFirst().orElseThrow(() -> new UnknownRunException(runId));
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
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE' ORDER BY step_no",
        stepMapper, runId);
  }

  /** The active path from step {@code fromStep} on (by number), root first: what an edit there touches. */
  public List<Step> activePathFrom(String runId, int fromStep) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE' AND step_no >= ?"
            + " ORDER BY step_no", stepMapper, runId, fromStep);
  }

  /** The last {@code limit} steps of the active path, root first: what the next model call needs. */
  public List<Step> recentPath(String runId, int limit) {
    List<Step> newestFirst = jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE'"
            + " ORDER BY run_id, status, step_no DESC LIMIT ?",
        stepMapper, runId, limit);
    List<Step> path = new ArrayList<>(newestFirst);
    Collections.reverse(path);
    return path;
  }

  /** The newest step of a kind on the active path. */
  public Optional<Step> latestActive(String runId, StepKind kind) {
    return jdbc.query(
            "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ? AND status = 'ACTIVE'"
                + " ORDER BY run_id, kind, step_no DESC LIMIT 1",
            stepMapper, runId, kind.name())
        .stream().findFirst();
  }

  /**
   * The newest follow-up question on the active path ({@link FollowUp}), which opens the current
   * turn of a conversation; empty while the run is in its first turn.
   */
  public Optional<Step> latestFollowUp(String runId) {
    return jdbc.query(
            "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ? AND status = 'ACTIVE'"
                + " AND content LIKE ? ORDER BY run_id, kind, step_no DESC",
            stepMapper, runId, StepKind.HUMAN_INPUT.name(), FOLLOW_UP_PATTERN)
        .stream().filter(step -> step.content() instanceof FollowUp).findFirst();
  }

  /**
   * What a conversation's turns are made of, on one path, root first: the follow-up questions and
   * the final answers of the active path ({@code activeOnly}) or of every branch.
   */
  public List<Step> questionsAndAnswers(String runId, boolean activeOnly) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ?" + (activeOnly ? " AND status = 'ACTIVE'" : "")
            + " AND (kind = ? OR (kind = ? AND content LIKE ?)) ORDER BY step_no",
        stepMapper, runId, StepKind.FINAL_ANSWER.name(), StepKind.HUMAN_INPUT.name(), FOLLOW_UP_PATTERN)
        .stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER || step.content() instanceof FollowUp).toList();
  }

  /** How many steps of a kind hang directly below a step, on any branch (e.g. earlier answers). */
  public int countChildren(String runId, int parentNo, StepKind kind) {
    Integer count = jdbc.queryForObject(
        "SELECT COUNT(*) FROM agentloop_step WHERE run_id = ? AND kind = ? AND parent_no = ?",
        Integer.class, runId, kind.name(), parentNo);
    return count == null ? 0 : count;
  }

  /** Every step of the run, superseded branches included, in the order they were written. */
  public List<Step> allSteps(String runId) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? ORDER BY step_no", stepMapper, runId);
  }

  /**
   * Appends steps as a chain below the expected head and moves the head to the last of them.
   *
   * @return the steps as stored and the new head, so that the caller can go on without reading them back
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is written
   */
  public Appended append(RunHead expected, List<NewStep> steps, Usage usage) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("steps must not be empty");
    }
    return transaction.execute(status ->
        chain(expected, expected.headStep(), expected.headTurn(), null, steps, usage));
  }

  /**
   * Keeps the steps of a model call whose reply came after its run had left the loop (its run-time
   * budget fired, a person stopped or moved it): the call was paid for, so its steps are stored off the
   * active path (superseded, below the step the call was made after, with the reason) and its cost
   * counts in the run's figures; the head does not move, and nothing the run does next sees them.
   * Only while nobody else wrote the run since {@code madeOn} (or it was stopped): when another node
   * did the same step again after our lock expired, that node's steps and cost stand, and writing
   * beside them would make its next write stale.
   *
   * @return whether the steps were kept
   */
  public boolean keepLate(RunHead madeOn, List<NewStep> steps, Usage usage, String reason) {
    if (steps.isEmpty()) {
      return false;
    }
    String runId = madeOn.runId();
    Integer madeAfter = madeOn.headStep();
    return Boolean.TRUE.equals(transaction.execute(status -> {
      RunRecord run = lockRun(runId);
      RunHead head = run.head();
      if (head.version() != madeOn.version() && run.status() != RunStatus.STOPPED) {
        return false;
      }
      Integer parent = madeAfter;
      int turn = madeAfter == null ? 0 : findStep(runId, madeAfter).map(Step::turn).orElse(head.headTurn());
      OffsetDateTime time = now();
      List<Object[]> stepRows = new ArrayList<>(steps.size());
      for (int i = 0; i < steps.size(); i++) {
        NewStep step = steps.get(i);
        NewStep late = new NewStep(step.content(), step.author(), step.reason() == null ? reason : step.reason());
        turn = step.kind().startsTurn() ? turn + 1 : turn;
        int stepNo = head.stepCount() + i + 1;
        stepRows.add(rows.row(late.at(runId, stepNo, parent, turn, time.toInstant()), usage.costOf(i)));
        parent = stepNo;
      }
      jdbc.update("UPDATE agentloop_run SET step_count = step_count + ?, version = version + 1,"
              + " model_calls = model_calls + ?, tool_calls = tool_calls + ?, tokens = tokens + ? WHERE run_id = ?",
          steps.size(), usage.modelCalls(), usage.toolCalls(), usage.tokens(), runId);
      insert(stepRows);
      supersedeFrom(runId, head.stepCount() + 1, head.stepCount() + steps.size() + 1);
      return true;
    }));
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
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("steps must not be empty");
    }
    if (!replaced.isActive()) {
      throw new IllegalArgumentException("step " + replaced.stepNo() + " is not on the active path of run "
          + expected.runId());
    }
    // the step as read by the caller: had the path moved since, the head's version refuses the write
    return transaction.execute(status -> {
      int turnBefore = replaced.kind().startsTurn() ? replaced.turn() - 1 : replaced.turn();
      Appended appended = chain(expected, replaced.parentNo(), turnBefore, replaced.stepNo(), steps, Usage.NONE);
      supersedeFrom(expected.runId(), replaced.stepNo(), appended.steps().get(0).stepNo());
      return appended;
    });
  }
  /**
   * Moves the head back to a step of the active path; the steps after it stay stored, marked
   * superseded, and the next step written hangs below {@code toStep} as a new branch.
   *
   * @throws StaleHeadException when the head is no longer {@code expected}; nothing is changed
   * @throws IllegalArgumentException when {@code toStep} is not on the active path
   */
  public RunHead rewind(RunHead expected, int toStep) {
    return transaction.execute(status -> rewind(expected, requireActive(expected.runId(), toStep)));
  }

  /**
   * {@link #rewind(RunHead, int)} to a step as the caller read it (with the run's {@link RunState}): had the
   * path moved since, the head's version refuses the write.
   *
   * @throws IllegalArgumentException when {@code to} was not on the active path
   */
  public RunHead rewind(RunHead expected, Step to) {
    if (!to.isActive()) {
      throw new IllegalArgumentException("step " + to.stepNo() + " is not on the active path of run "
          + expected.runId());
    }
    return transaction.execute(status -> {
      RunHead head = new RunHead(expected.runId(), expected.version() + 1, to.stepNo(), to.turn(),
          expected.stepCount());
      moveHead(expected, head, 0, Usage.NONE);
      supersedeFrom(expected.runId(), to.stepNo() + 1, expected.stepCount() + 1);
      return head;
    });
  }

  /**
   * Starts the trace of a restarted run as a copy of another run's path (root first): same kinds,
   * contents, authors and times, numbered from 1, linked to where it came from. The restarted run
   * must have been created and be empty.
   */
  public RunHead copyPath(String runId, List<Step> path, RunRecord.Restart restart) {
    return transaction.execute(status -> {
      List<Step> copies = new ArrayList<>(path.size());
      for (Step step : path) {
        int stepNo = copies.size() + 1;
        copies.add(NewStep.copyOf(step).at(runId, stepNo, stepNo == 1 ? null : stepNo - 1, step.turn(),
            step.createdAt()));
      }
      Step last = copies.get(copies.size() - 1);
      int updated = jdbc.update("UPDATE agentloop_run SET head_step = ?, head_turn = ?, step_count = ?,"
              + " version = version + 1, restarted_from = ?, restarted_from_step = ?, restarted_by = ?,"
              + " restart_reason = ? WHERE run_id = ? AND step_count = 0",
          last.stepNo(), last.turn(), copies.size(), restart.runId(), restart.fromStep(), StoredText.of(restart.by()),
          StoredText.of(restart.reason()),
          runId);
      if (updated != 1) {
        throw new IllegalStateException("run " + runId + " is not a new, empty run");
      }
      insert(copies.stream().map(rows::row).toList());
      return run(runId).head();
    });
  }

  /** The runs restarted from this one, oldest first. */
  public List<String> restartsOf(String runId) {
    return jdbc.queryForList("SELECT run_id FROM agentloop_run WHERE restarted_from = ? ORDER BY created_at",
        String.class, runId);
  }

  /** The most recent runs of an agent, newest first; only finished ones when {@code finished}. */
  public List<RunRecord> recentRuns(String agentKey, boolean finished, int limit) {
    String onlyFinished = finished ? " AND ended_at IS NOT NULL" : "";
    return jdbc.query("SELECT * FROM agentloop_run WHERE agent_key = ?" + onlyFinished
        + " ORDER BY created_at DESC LIMIT ?", runMapper, agentKey, limit);
  }

  public Optional<Step> findStep(String runId, int stepNo) {
    return jdbc.query("SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND step_no = ?",
        stepMapper, runId, stepNo).stream().findFirst();
  }

  /** The superseded observations of the run written by one of these tools: calls that ran on an abandoned branch. */
  public List<Step> supersededRunsOf(String runId, Collection<String> tools) {
    if (tools.isEmpty()) {
      return List.of();
    }
    String names = String.join(", ", Collections.nCopies(tools.size(), "?"));
    List<Object> arguments = new ArrayList<>(List.of(runId, StepKind.OBSERVATION.name()));
    arguments.addAll(tools);
    return jdbc.query("SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ?"
        + " AND status = 'SUPERSEDED' AND author IN (" + names + ") ORDER BY step_no", stepMapper, arguments.toArray());
  }

  /** Records how a run ended; the trace itself is untouched. */
  public void markEnded(String runId, RunStatus status, String reason) {
    jdbc.update("UPDATE agentloop_run SET status = ?, status_reason = ?, ended_at = ? WHERE run_id = ?",
        status.name(), StoredText.of(reason), now(), runId);
  }

  /** Writes steps as a chain below {@code parent} and moves the head from {@code expected} to the last of them. */
  private Appended chain(RunHead expected, Integer parent, int turn, Integer supersedes, List<NewStep> steps,
      Usage usage) {
    OffsetDateTime time = now();
    List<Step> written = new ArrayList<>(steps.size());
    for (NewStep step : steps) {
      turn = step.kind().startsTurn() ? turn + 1 : turn;
      int stepNo = expected.stepCount() + written.size() + 1;
      Step stored = step.at(expected.runId(), stepNo, parent, turn, time.toInstant());
      written.add(written.isEmpty() && supersedes != null ? stored.superseding(supersedes) : stored);
      parent = stepNo;
    }
    RunHead head = new RunHead(expected.runId(), expected.version() + 1, parent, turn, parent);
    moveHead(expected, head, steps.size(), usage);
    List<Object[]> stepRows = new ArrayList<>(written.size());
    for (int i = 0; i < written.size(); i++) {
      stepRows.add(rows.row(written.get(i), usage.costOf(i)));
    }
    insert(stepRows);
    if (usage.prompt() != null) {
      prompts.store(expected.runId(), written.get(0).stepNo(), usage.prompt());
    }
    return new Appended(head, written);
  }

  private Step requireActive(String runId, int stepNo) {
    return findStep(runId, stepNo).filter(Step::isActive).orElseThrow(() -> new IllegalArgumentException(
        "step " + stepNo + " is not on the active path of run " + runId));
  }

  /** Active steps numbered from {@code first} up to, not including, {@code end}: the path after a branch point. */
  private void supersedeFrom(String runId, int first, int end) {
    jdbc.update("UPDATE agentloop_step SET status = 'SUPERSEDED' WHERE run_id = ? AND status = 'ACTIVE'"
        + " AND step_no >= ? AND step_no < ?", runId, first, end);
  }

  private void moveHead(RunHead expected, RunHead head, int added, Usage usage) {
    int updated = jdbc.update(
        "UPDATE agentloop_run SET head_step = ?, head_turn = ?, step_count = step_count + ?, version = version + 1,"
            + " model_calls = model_calls + ?, tool_calls = tool_calls + ?, tokens = tokens + ?"
            + " WHERE run_id = ? AND version = ?",
        head.headStep(), head.headTurn(), added, usage.modelCalls(), usage.toolCalls(), usage.tokens(),
        expected.runId(), expected.version());
    if (updated != 1) {
      throw new StaleHeadException(expected.runId(), expected.version());
    }
  }

  private void insert(List<Object[]> rows) {
    String sql = "INSERT INTO agentloop_step (" + ROW_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    if (rows.size() == 1) {
      jdbc.update(sql, rows.get(0));
    } else {
      jdbc.batchUpdate(sql, rows);
    }
  }

  private static OffsetDateTime now() {
    return ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
  }
}
