package dev.agentloop.trace;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/** Creates the step store's tables when they are missing; the script is idempotent and portable. */
final class TraceSchema {

  /** Where the costs of calls were kept before they became columns of their steps. */
  private static final String OLD_COST_TABLE = "agentloop_step_cost";

  private TraceSchema() {}

  static void create(DataSource dataSource) {
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/trace/schema.sql")).execute(dataSource);
    moveCostsOntoSteps(dataSource);
  }

  /**
   * A database of before the costs of calls moved onto their steps (a row fewer to write for every
   * call) still has them in a table of their own: they move onto their steps, and the table goes.
   * Should two nodes start on such a database at once, the second finds the table gone.
   */
  private static void moveCostsOntoSteps(DataSource dataSource) {
    if (!tableExists(dataSource, OLD_COST_TABLE)) {
      return;
    }
    String cost = "(SELECT c.%s FROM " + OLD_COST_TABLE + " c WHERE c.run_id = s.run_id AND c.step_no = s.step_no)";
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    jdbc.update("UPDATE agentloop_step s SET"
        + " cost_model_call = " + cost.formatted("model_call")
        + ", cost_latency_ms = " + cost.formatted("latency_ms")
        + ", cost_prompt_tokens = " + cost.formatted("prompt_tokens")
        + ", cost_completion_tokens = " + cost.formatted("completion_tokens")
        + ", cost_total_tokens = " + cost.formatted("total_tokens")
        + " WHERE EXISTS " + cost.formatted("step_no"));
    jdbc.execute("DROP TABLE IF EXISTS " + OLD_COST_TABLE);
  }

  /** Whether the table exists, however the database cases unquoted names (H2 upper, PostgreSQL lower). */
  private static boolean tableExists(DataSource dataSource, String name) {
    try (Connection connection = dataSource.getConnection()) {
      DatabaseMetaData metadata = connection.getMetaData();
      for (String cased : new String[] {name.toUpperCase(Locale.ROOT), name.toLowerCase(Locale.ROOT)}) {
        try (ResultSet tables = metadata.getTables(null, null, cased, new String[] {"TABLE"})) {
          if (tables.next()) {
            return true;
          }
        }
      }
      return false;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the database's tables", e);
    }
  }
}
