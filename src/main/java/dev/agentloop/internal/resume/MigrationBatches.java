package dev.agentloop.internal.resume;

import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.impl.batch.builder.BatchBuilder;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;

/** Creates the Camunda batch of a migration ({@link MigrationBatchHandler}) in the caller's engine command. */
final class MigrationBatches {

  private MigrationBatches() {}

  /** @return the batch's id */
  static String create(CommandContext context, List<String> runIds, String migrationId) {
    return new BatchBuilder(context)
        .type(MigrationBatchHandler.TYPE)
        .config(new MigrationBatchHandler.Configuration(new ArrayList<>(runIds), migrationId))
        // who may was asked before (RunAccess.mayMigrate): Camunda's batch permissions do not know AgentLoop's groups
        .permissionHandler(ctx -> { })
        // AgentLoop audits every run's move as a decision of its own
        .operationLogHandler(ctx -> { })
        .build().getId();
  }
}
