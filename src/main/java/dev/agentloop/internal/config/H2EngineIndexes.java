package dev.agentloop.internal.config;

import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One index for Camunda's tables on H2. Completing any task loads the variables of its execution
 * with {@code WHERE EXECUTION_ID_ = ? AND TASK_ID_ IS NULL}; H2's optimizer picks the index on
 * {@code TASK_ID_} for it and so scans the variables of every running instance, making each step
 * cost O(running instances). With this index it looks up the execution's few rows. PostgreSQL plans
 * the query well and gets nothing from us.
 */
final class H2EngineIndexes {

  private static final Logger LOG = LoggerFactory.getLogger(H2EngineIndexes.class);

  private H2EngineIndexes() {}

  static void create(ProcessEngine engine) {
    ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
    if (!"h2".equals(configuration.getDatabaseType())) {
      return;
    }
    DataSource dataSource = configuration.getDataSource();
    new JdbcTemplate(dataSource).execute(
        "CREATE INDEX IF NOT EXISTS AGENTLOOP_VAR_EXEC_TASK ON " + configuration.getDatabaseTablePrefix()
            + "ACT_RU_VARIABLE (EXECUTION_ID_, TASK_ID_)");
    LOG.debug("H2 index AGENTLOOP_VAR_EXEC_TASK is in place");
  }
}
