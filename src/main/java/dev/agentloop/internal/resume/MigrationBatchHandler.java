package dev.agentloop.internal.resume;

import camundajar.impl.com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.camunda.bpm.engine.impl.batch.AbstractBatchConfigurationObjectConverter;
import org.camunda.bpm.engine.impl.batch.AbstractBatchJobHandler;
import org.camunda.bpm.engine.impl.batch.BatchConfiguration;
import org.camunda.bpm.engine.impl.batch.BatchJobContext;
import org.camunda.bpm.engine.impl.batch.BatchJobDeclaration;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.jobexecutor.JobDeclaration;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.MessageEntity;
import org.camunda.bpm.engine.impl.util.JsonUtil;

/**
 * The Camunda batch of a migration of many runs ({@value #TYPE}): the engine's seed job makes the batch jobs, the
 * job executors of every node run them, and Cockpit's batch view shows their progress. A batch job moves its runs
 * ({@code invocationsPerBatchJob}, one by default: Camunda's setting, per batch type too) each in a transaction of
 * its own ({@link RunMigration}), so a run that cannot move never holds the others back, live work on other runs
 * never waits for the batch, and a job run again finds its runs decided already. Registered by the engine plugin,
 * which is built before the services it needs: they are looked up at the first job. Thread-safe.
 */
public final class MigrationBatchHandler extends AbstractBatchJobHandler<MigrationBatchHandler.Configuration> {

  /** The batch type, as Cockpit and the engine's batch queries show it. */
  public static final String TYPE = "agentloop-migration";
  private static final BatchJobDeclaration JOB_DECLARATION = new BatchJobDeclaration(TYPE);

  private final Supplier<AgentMigrations> migrations;

  public MigrationBatchHandler(Supplier<AgentMigrations> migrations) {
    this.migrations = migrations;
  }

  /** The runs of one migration, of the batch or of one of its jobs. */
  static final class Configuration extends BatchConfiguration {

    private final String migrationId;

    Configuration(List<String> runIds, String migrationId) {
      super(runIds);
      this.migrationId = migrationId;
    }

    String migrationId() {
      return migrationId;
    }
  }

  @Override
  public String getType() {
    return TYPE;
  }

  @Override
  public JobDeclaration<BatchJobContext, MessageEntity> getJobDeclaration() {
    return JOB_DECLARATION;
  }

  @Override
  protected Configuration createJobConfiguration(Configuration configuration, List<String> runIds) {
    return new Configuration(List.copyOf(runIds), configuration.migrationId());
  }

  @Override
  protected void executeHandler(Configuration configuration, ExecutionEntity execution, CommandContext context,
      String tenantId) {
    migrations.get().moveInBatch(configuration.migrationId(), configuration.getIds());
  }

  @Override
  protected AbstractBatchConfigurationObjectConverter<Configuration> getJsonConverterInstance() {
    return Json.INSTANCE;
  }

  /** The configuration as the engine stores it: the run ids and the migration. */
  private static final class Json extends AbstractBatchConfigurationObjectConverter<Configuration> {

    static final Json INSTANCE = new Json();
    private static final String RUNS = "runs";
    private static final String MIGRATION = "migration";

    @Override
    public JsonObject writeConfiguration(Configuration configuration) {
      JsonObject json = JsonUtil.createObject();
      JsonUtil.addListField(json, RUNS, configuration.getIds());
      JsonUtil.addField(json, MIGRATION, configuration.migrationId());
      return json;
    }

    @Override
    public Configuration readConfiguration(JsonObject json) {
      // mutable: the seed job takes the ids of each job off the batch's list
      return new Configuration(new ArrayList<>(JsonUtil.asStringList(JsonUtil.getArray(json, RUNS))),
          JsonUtil.getString(json, MIGRATION));
    }
  }
}
