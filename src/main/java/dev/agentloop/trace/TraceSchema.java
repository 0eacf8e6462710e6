package dev.agentloop.trace;

import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/** Creates the step store's tables when they are missing; the script is idempotent and portable. */
final class TraceSchema {

  private TraceSchema() {}

  static void create(DataSource dataSource) {
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/trace/schema.sql")).execute(dataSource);
  }
}
