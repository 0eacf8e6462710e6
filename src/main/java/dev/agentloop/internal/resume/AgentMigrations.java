package dev.agentloop.internal.resume;

import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.MigrationLog;
import dev.agentloop.internal.trace.MigrationOrder;
import dev.agentloop.internal.trace.MoveOutcome;
import dev.agentloop.internal.trace.RunMove;
import dev.agentloop.internal.trace.StoredMigration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.exception.NotFoundException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.repository.ProcessDefinition;

/**
 * Moves waiting runs of an agent to another of its versions: the one door for every migration, from the API,
 * Cockpit or a host's code. Who may is asked first ({@link RunAccess#mayMigrate}); a run the user may not read is
 * as unknown as one that does not exist. A dry run says per run what would happen and keeps nothing. Up to
 * {@link MigrationSettings#batchThreshold()} runs move in the request, each in a transaction of its own; more go to
 * a Camunda batch ({@link MigrationBatchHandler}) whose progress {@link #progress} tells. A run busy in a call
 * is refused, or moves when it next waits ({@link PendingMigrations}). Thread-safe.
 */
public class AgentMigrations {

  private final RunAccess access;
  private final AgentVersions versions;
  private final RunMigration runs;
  private final MigrationLog log;
  private final RunChanges changes;
  private final MigrationSettings settings;
  private final CommandExecutor commands;

  AgentMigrations(ProcessEngine engine, RunAccess access, AgentVersions versions, RunMigration runs, MigrationLog log,
      RunChanges changes, MigrationSettings settings) {
    this.access = access;
    this.versions = versions;
    this.runs = runs;
    this.log = log;
    this.changes = changes;
    this.settings = settings;
    this.commands = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired();
  }

  /**
   * The agent's versions, oldest first, each with its open runs and all its runs: for those who may move them.
   *
   * @throws org.camunda.bpm.engine.AuthorizationException when the user may not move this agent's runs
   * @throws dev.agentloop.api.UnknownAgentException when no agent has that key
   */
  public List<AgentVersion> versions(String agentKey) {
    access.requireMigrate(agentKey);
    List<ProcessDefinition> all = versions.existing(agentKey, this::withoutAuthorization);
    return withoutAuthorization(() -> versions.withRuns(all));
  }

  /**
   * Moves the runs the request names, or says what would become of each (a dry run).
   *
   * @throws org.camunda.bpm.engine.AuthorizationException when the user may not move this agent's runs
   * @throws dev.agentloop.api.UnknownAgentException when no agent has that key
   * @throws InvalidMigrationException when a version is not the agent's, or a version names too many runs
   */
  public MigrationReport migrate(MigrationRequest request) {
    access.requireMigrate(request.agentKey());
    List<ProcessDefinition> all = versions.existing(request.agentKey(), this::withoutAuthorization);
    ProcessDefinition target = AgentVersions.version(request.agentKey(), all, request.toVersion());
    ProcessDefinition source = request.fromVersion() == null ? null
        : AgentVersions.version(request.agentKey(), all, request.fromVersion());
    List<String> named = request.runs() != null ? request.runs()
        : withoutAuthorization(() -> versions.openRuns(source));
    if (named.size() > MigrationRequest.MAX_RUNS) {
      throw new InvalidMigrationException("version " + request.fromVersion() + " has " + named.size() + " open runs,"
          + " more than one migration moves (" + MigrationRequest.MAX_RUNS + "): name them in parts (runs)");
    }
    MigrationOrder order = new MigrationOrder(request.agentKey(), target.getId(), target.getVersion(),
        request.moveWhenWaiting(), request.requestedBy(), request.reason());
    // a run the user may not read is as unknown as one that does not exist
    Predicate<String> mayRead = access.readableRuns(request.agentKey())
        .<Predicate<String>>map(only -> run -> only.contains(run) || access.mayRead(run)).orElse(run -> true);
    List<String> readable = named.stream().filter(mayRead).toList();
    List<RunMove> unknown = named.stream().filter(mayRead.negate())
        .map(run -> new RunMove(run, MoveOutcome.REFUSED, null, "there is no run " + run, null)).toList();
    Instant now = ClockUtil.getCurrentTime().toInstant();
    if (request.dryRun()) {
      List<RunMove> moves = new ArrayList<>(unknown);
      readable.forEach(run -> moves.add(runs.preview(run, order)));
      return report(null, order, request.fromVersion(), true, now, null, named.size(), moves);
    }
    String migrationId = UUID.randomUUID().toString();
    if (readable.size() > settings.batchThreshold()) {
      StoredMigration migration = changes.applyTogether(() -> {
        String batchId = commands.execute(context -> MigrationBatches.create(context, readable, migrationId));
        StoredMigration opened = new StoredMigration(migrationId, order, request.fromVersion(), now, named.size(),
            batchId);
        log.open(opened);
        unknown.forEach(move -> log.result(migrationId, move));
        return opened;
      });
      return progress(migration);
    }
    StoredMigration migration = new StoredMigration(migrationId, order, request.fromVersion(), now, named.size(), null);
    changes.applyTogether(() -> {
      log.open(migration);
      unknown.forEach(move -> log.result(migrationId, move));
      return null;
    });
    readable.forEach(run -> runs.move(run, migration));
    return progress(migration);
  }

  /**
   * How a migration stands: what became of each of its runs so far.
   *
   * @throws NotFoundException when the agent has no such migration
   * @throws org.camunda.bpm.engine.AuthorizationException when the user may not move this agent's runs
   */
  public MigrationReport progress(String agentKey, String migrationId) {
    access.requireMigrate(agentKey);
    if (migrationId.length() > 64 || migrationId.indexOf('\0') >= 0) {
      throw new NotFoundException("agent " + agentKey + " has no migration " + migrationId.replace('\0', '?'));
    }
    return progress(log.find(migrationId).filter(found -> found.order().agentKey().equals(agentKey))
        .orElseThrow(() -> new NotFoundException("agent " + agentKey + " has no migration " + migrationId)));
  }

  /** The runs of a batch job of the migration, one by one. */
  void moveInBatch(String migrationId, List<String> runIds) {
    StoredMigration migration = log.find(migrationId).orElseThrow(() -> new IllegalStateException(
        "migration " + migrationId + " of a batch is not kept: its batch cannot move its runs"));
    runIds.forEach(run -> runs.move(run, migration));
  }

  /** A run that was busy moves now that it waits, or is refused, or stays pending while still busy. */
  RunMove movePending(String migrationId, String runId) {
    return runs.move(runId, log.find(migrationId).orElseThrow(() -> new IllegalStateException(
        "migration " + migrationId + " is not kept")));
  }

  private MigrationReport progress(StoredMigration migration) {
    return report(migration.migrationId(), migration.order(), migration.fromVersion(), false,
        migration.requestedAt(), migration.batchId(), migration.runCount(), log.results(migration.migrationId()));
  }

  private static MigrationReport report(String migrationId, MigrationOrder order, Integer fromVersion, boolean dryRun,
      Instant at, String batchId, int total, List<RunMove> moves) {
    int migrated = count(moves, MoveOutcome.MIGRATED);
    int refused = count(moves, MoveOutcome.REFUSED);
    int pending = count(moves, MoveOutcome.PENDING);
    return new MigrationReport(migrationId, order.agentKey(), order.toVersion(), fromVersion, dryRun,
        order.requestedBy(), order.reason().isBlank() ? null : order.reason(), at, batchId, total,
        migrated, refused, pending, migrated + refused == total, moves);
  }

  private static int count(List<RunMove> moves, MoveOutcome outcome) {
    return (int) moves.stream().filter(move -> move.outcome() == outcome).count();
  }

  private <T> T withoutAuthorization(Supplier<T> read) {
    return commands.execute(context -> context.runWithoutAuthorization(read::get));
  }
}
