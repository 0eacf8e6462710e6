package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The writes of a run's steps: a chain below the head (append), a new branch (branch), the head moved back
 * (rewind), a late call's steps kept off the path, a copied path. Apart from the reads because each write is one
 * transaction that moves the run's head only from the version its caller read, and so refuses a stale one.
 * Their statements are {@link StepTable}'s. Thread-safe.
 */
final class StepWrites {

  /** How many runs' newest head versions are remembered: as many as a node runs at once, and more. */
  private static final int REMEMBERED_RUNS = 4096;

  private final StepTable table;
  private final TransactionTemplate transaction;
  /**
   * The newest head version written here per run, for the runs written last. A writer whose transaction rolled back
   * leaves a version that was never committed: a state checked against it is read again, which costs a read only.
   */
  private final Map<String, Integer> newestVersions = Collections.synchronizedMap(
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
          return size() > REMEMBERED_RUNS;
        }
      });
  private final StepRows rows;
  private final PromptArchive prompts;
  private final RunRecords runs;
  private final PathReads paths;

  StepWrites(JdbcTemplate jdbc, TransactionTemplate transaction, StepRows rows, PromptArchive prompts,
      RunRecords runs, PathReads paths) {
    this.table = new StepTable(jdbc);
    this.transaction = transaction;
    this.rows = rows;
    this.prompts = prompts;
    this.runs = runs;
    this.paths = paths;
  }

  /** Whether this JVM wrote the run past {@code head}: a state read or handed on at that head is no longer its. */
  boolean movedPast(RunHead head) {
    Integer newest = newestVersions.get(head.runId());
    return newest != null && newest > head.version();
  }

  Appended append(RunHead expected, List<NewStep> steps, Usage usage) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("steps must not be empty");
    }
    return transaction.execute(status ->
        chain(expected, expected.headStep(), expected.headTurn(), null, steps, usage));
  }

  boolean keepLate(RunHead madeOn, List<NewStep> steps, Usage usage, String reason) {
    if (steps.isEmpty()) {
      return false;
    }
    String runId = madeOn.runId();
    Integer madeAfter = madeOn.headStep();
    return Boolean.TRUE.equals(transaction.execute(status -> {
      RunRecord run = runs.lock(runId);
      RunHead head = run.head();
      if (head.version() != madeOn.version() && run.status() != RunStatus.STOPPED) {
        // written since by a person's edit, or by a node that did the step again: steps beside theirs would make
        // their next write stale, but the calls were paid for all the same, so their cost counts, head untouched
        table.addUsage(runId, usage);
        return false;
      }
      Integer parent = madeAfter;
      int turn = madeAfter == null ? 0 : paths.find(runId, madeAfter).map(Step::turn).orElse(head.headTurn());
      OffsetDateTime time = StepStore.now();
      List<Object[]> stepRows = new ArrayList<>(steps.size());
      for (int i = 0; i < steps.size(); i++) {
        NewStep step = steps.get(i);
        NewStep late = new NewStep(step.content(), step.author(), step.reason() == null ? reason : step.reason());
        turn = step.kind().startsTurn() ? turn + 1 : turn;
        int stepNo = head.stepCount() + i + 1;
        stepRows.add(rows.row(late.at(runId, stepNo, parent, turn, time.toInstant()), usage.costOf(i)));
        parent = stepNo;
      }
      table.addOffPath(runId, steps.size(), usage);
      table.insert(stepRows);
      table.supersedeFrom(runId, head.stepCount() + 1, head.stepCount() + steps.size() + 1);
      newestVersions.put(runId, head.version() + 1);
      return true;
    }));
  }

  Appended branch(RunHead expected, Step replaced, List<NewStep> steps) {
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
      table.supersedeFrom(expected.runId(), replaced.stepNo(), appended.steps().get(0).stepNo());
      return appended;
    });
  }

  RunHead rewind(RunHead expected, Step to) {
    if (!to.isActive()) {
      throw new IllegalArgumentException("step " + to.stepNo() + " is not on the active path of run "
          + expected.runId());
    }
    return transaction.execute(status -> {
      RunHead head = new RunHead(expected.runId(), expected.version() + 1, to.stepNo(), to.turn(),
          expected.stepCount());
      moveHead(expected, head, 0, Usage.NONE);
      table.supersedeFrom(expected.runId(), to.stepNo() + 1, expected.stepCount() + 1);
      return head;
    });
  }

  RunHead copyPath(String runId, List<Step> path, RunRecord.Restart restart) {
    return transaction.execute(status -> {
      List<Step> copies = new ArrayList<>(path.size());
      for (Step step : path) {
        int stepNo = copies.size() + 1;
        copies.add(NewStep.copyOf(step).at(runId, stepNo, stepNo == 1 ? null : stepNo - 1, step.turn(),
            step.createdAt()));
      }
      Step last = copies.get(copies.size() - 1);
      if (!table.startCopy(runId, last, copies.size(), restart)) {
        throw new IllegalStateException("run " + runId + " is not a new, empty run");
      }
      table.insert(copies.stream().map(rows::row).toList());
      RunHead head = runs.get(runId).head();
      newestVersions.put(runId, head.version());
      return head;
    });
  }

  /** Writes steps as a chain below {@code parent} and moves the head from {@code expected} to the last of them. */
  private Appended chain(RunHead expected, Integer parent, int turn, Integer supersedes, List<NewStep> steps,
      Usage usage) {
    OffsetDateTime time = StepStore.now();
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
    table.insert(stepRows);
    if (usage.prompt() != null) {
      prompts.store(expected.runId(), written.get(0).stepNo(), usage.prompt());
    }
    return new Appended(head, written);
  }

  /** Moves the head (refusing a stale one) and remembers the run's newest version. */
  private void moveHead(RunHead expected, RunHead head, int added, Usage usage) {
    table.moveHead(expected, head, added, usage);
    newestVersions.put(head.runId(), head.version());
  }
}
