package dev.agentloop.internal.resume;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.trace.MigrationLog;
import dev.agentloop.internal.trace.MigrationOrder;
import dev.agentloop.internal.trace.MoveOutcome;
import dev.agentloop.internal.trace.RunMove;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.StoredMigration;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one run of a migration, or says what would become of it (a dry run): the run's row is locked, its state
 * read once and its place in the engine asked for, the check decides ({@link MigrationCheck}), and a run that moves
 * is migrated by Camunda's plan and audited ({@link RunMoves}) in a transaction of its own, so that one run's
 * failure is never another's. A run busy in a call is refused, or waits to move when it next waits. What became of
 * each run is kept with the migration. Thread-safe.
 */
final class RunMigration {

  private static final Logger LOG = LoggerFactory.getLogger(RunMigration.class);

  private final ProcessEngine engine;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final MigrationPlans plans;
  private final MigrationLog log;
  private final RunChanges changes;
  private final RunMoves moves;

  RunMigration(ProcessEngine engine, StepStore store, AgentDefinitions definitions, MigrationPlans plans,
      MigrationLog log, RunChanges changes, RunMoves moves) {
    this.engine = engine;
    this.store = store;
    this.definitions = definitions;
    this.plans = plans;
    this.log = log;
    this.changes = changes;
    this.moves = moves;
  }

  /** What would become of the run, changing nothing. */
  RunMove preview(String runId, MigrationOrder order) {
    return changes.applyAlone(runId, () -> {
      Optional<RunRecord> run = find(runId, false);
      return run.isEmpty() ? unknown(runId) : assess(run.get(), order).move(order.moveWhenWaiting());
    });
  }

  /**
   * Moves the run, refuses it, or leaves it to move when it next waits, and keeps what became of it. A run the
   * migration has decided on already (a batch job run again) keeps that decision.
   */
  RunMove move(String runId, StoredMigration migration) {
    try {
      return attempt(runId, migration);
    } catch (ResumeConflictException first) {
      // a person or the agent changed the run at that moment: look again once, from where it is now
      try {
        return attempt(runId, migration);
      } catch (ResumeConflictException again) {
        return keep(migration, refused(runId, "the run changed at the same moment, twice: ask again"));
      }
    } catch (ProcessEngineException e) {
      LOG.warn("AGENTLOOP-701 run {} could not move to version {} of {} in migration {}: {}. It stays on its"
          + " version; look at the diagram of that version, or move the run by Camunda's own migration in Cockpit",
          runId, migration.order().toVersion(), migration.order().agentKey(), migration.migrationId(), e.getMessage());
      return keep(migration, refused(runId, "Camunda refused the move: " + e.getMessage()));
    }
  }

  private RunMove attempt(String runId, StoredMigration migration) {
    return changes.applyAlone(runId, () -> {
      Optional<RunRecord> found = find(runId, true);
      if (found.isEmpty()) {
        RunMove unknown = unknown(runId);
        log.result(migration.migrationId(), unknown);
        return unknown;
      }
      RunRecord run = found.get();
      Optional<RunMove> decided = log.result(migration.migrationId(), runId)
          .filter(move -> move.outcome() != MoveOutcome.PENDING);
      if (decided.isPresent()) {
        return decided.get();
      }
      Assessment assessment = assess(run, migration.order());
      RunMove move = assessment.verdict() != null && assessment.verdict().kind() == MigrationCheck.Verdict.Kind.MOVES
          ? moves.migrate(assessment, migration.order())
          : assessment.move(migration.order().moveWhenWaiting());
      if (move.outcome() == MoveOutcome.PENDING
          && log.result(migration.migrationId(), runId).map(RunMove::outcome).orElse(null) == MoveOutcome.PENDING) {
        return move; // still busy: nothing new to keep
      }
      log.result(migration.migrationId(), move);
      return move;
    });
  }

  /**
   * The run, locked for the move or read as it is: looked up inside the command, since a run that is not there is
   * an answer (refused), not the command's failure.
   */
  private Optional<RunRecord> find(String runId, boolean lock) {
    try {
      return Optional.of(lock ? store.lockRun(runId) : store.run(runId));
    } catch (UnknownRunException e) {
      return Optional.empty();
    }
  }

  private Assessment assess(RunRecord run, MigrationOrder order) {
    if (!run.agentKey().equals(order.agentKey())) {
      return Assessment.refused(run, "the run is a run of agent " + run.agentKey() + ", not of " + order.agentKey());
    }
    if (run.status().isFinished()) {
      return Assessment.refused(run, "the run has ended (" + run.status() + "): only runs that wait move");
    }
    Optional<RunPosition> position = RunPosition.of(run.runId(), engine.getRuntimeService(),
        engine.getRepositoryService());
    if (position.isEmpty()) {
      return Assessment.refused(run, "the run has ended meanwhile: only runs that wait move");
    }
    MigrationCheck.Target target = new MigrationCheck.Target(order.toDefinition(), order.toVersion(),
        definitions.settings(order.toDefinition()), plans.plan(position.get().definitionId(), order.toDefinition()),
        plans.elements(position.get().definitionId()));
    RunState state = new RunState(run, store.allSteps(run.runId()));
    return new Assessment(state, position.get(), target, MigrationCheck.check(state, position.get(), target), null);
  }

  private RunMove keep(StoredMigration migration, RunMove move) {
    changes.applyAlone(move.runId(), () -> {
      log.result(migration.migrationId(), move);
      return null;
    });
    return move;
  }

  private static RunMove unknown(String runId) {
    return refused(runId, "there is no run " + runId);
  }

  private static RunMove refused(String runId, String words) {
    return new RunMove(runId, MoveOutcome.REFUSED, null, words, null);
  }

  /**
   * What the check found for a run, with what it read: the state, its place in the engine and the target, or the
   * words of a refusal found before the engine was asked.
   */
  record Assessment(RunState state, RunPosition position, MigrationCheck.Target target,
      MigrationCheck.Verdict verdict, String refusal) {

    static Assessment refused(RunRecord run, String words) {
      return new Assessment(new RunState(run, java.util.List.of()), null, null, null, words);
    }

    /** The outcome without moving: a refusal, a busy run (pending or refused as asked), or a run that would move. */
    RunMove move(boolean moveWhenWaiting) {
      String runId = state.runId();
      Integer from = position == null ? null : position.version();
      if (verdict == null) {
        return new RunMove(runId, MoveOutcome.REFUSED, from, refusal, null);
      }
      return switch (verdict.kind()) {
        case MOVES -> new RunMove(runId, MoveOutcome.MIGRATED, from, "would move from version " + from
            + " to version " + target.version() + ": it " + verdict.words(), null);
        case BUSY -> moveWhenWaiting
            ? new RunMove(runId, MoveOutcome.PENDING, from, verdict.words().replace("busy: try again when it waits",
                "busy: moves to version " + target.version() + " when it next waits"), null)
            : new RunMove(runId, MoveOutcome.REFUSED, from, verdict.words(), null);
        case REFUSED -> new RunMove(runId, MoveOutcome.REFUSED, from, verdict.words(), null);
      };
    }
  }
}
