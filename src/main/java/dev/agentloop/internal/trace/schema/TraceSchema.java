package dev.agentloop.internal.trace.schema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * AgentLoop's tables at start: with {@code schema-update} the versioned scripts the database lacks are
 * applied (none, and so no DDL, when it is current), then, either way, the tables are checked and the
 * start fails naming what is missing. The scripts are {@link Migration}s; which versions are in place is
 * kept in {@code agentloop_schema_version}, one row per script, written by the script itself so that a
 * DBA or Flyway applying the same files keeps it too.
 */
public final class TraceSchema {

  private static final Logger LOG = LoggerFactory.getLogger(TraceSchema.class);

  /** Where the costs of calls were kept before they became columns of their steps. */
  private static final String OLD_COST_TABLE = "agentloop_step_cost";
  private static final String SHIPPED = "h2, postgres";

  private TraceSchema() {}

  public static void prepare(DataSource dataSource, boolean update) {
    String database = database(dataSource);
    List<Migration> migrations = Migration.of(database);
    if (update) {
      if (migrations.isEmpty()) {
        throw new IllegalStateException("AgentLoop ships the scripts of its tables for " + SHIPPED + ", not for "
            + database + ": create its tables yourself after " + Migration.LOCATION + "postgres/ and set"
            + " agentloop.database.schema-update=false, so that AgentLoop only checks them");
      }
      update(dataSource, migrations);
    }
    check(dataSource, migrations.isEmpty() ? Migration.of("h2") : migrations, database);
  }

  private static void update(DataSource dataSource, List<Migration> migrations) {
    int version = SchemaInspection.version(dataSource);
    // a database of a release before versioned scripts has the tables but no version: version 1, which only
    // adds what it lacks, brings it to version 1 with its rows
    boolean earlierRelease = version == 0 && SchemaInspection.tableExists(dataSource, "agentloop_run");
    for (Migration migration : migrations) {
      if (migration.version() > version) {
        apply(dataSource, migration);
        LOG.info("AgentLoop's tables: applied version {} ({}{})", migration.version(), migration.description(),
            earlierRelease && migration.version() == 1 ? ", over the tables of an earlier release, rows kept" : "");
        if (earlierRelease && migration.version() == 1) {
          moveCostsOntoSteps(dataSource);
        }
      }
    }
  }

  /** One script in one transaction where the database has transactional DDL (PostgreSQL). */
  private static void apply(DataSource dataSource, Migration migration) {
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        ScriptUtils.executeSqlScript(connection, new ByteArrayResource(migration.sql().getBytes(StandardCharsets.UTF_8),
            migration.script().getFilename()));
        connection.commit();
      } catch (RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot apply " + migration.script().getFilename(), e);
    }
  }

  private static void check(DataSource dataSource, List<Migration> migrations, String database) {
    List<String> missing = new ArrayList<>(
        SchemaInspection.missing(dataSource, SchemaInspection.expected(migrations)));
    int latest = migrations.get(migrations.size() - 1).version();
    if (missing.isEmpty() && SchemaInspection.version(dataSource) < latest) {
      missing.add("version " + latest + " in " + SchemaInspection.VERSION_TABLE);
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("AgentLoop's tables are not in place; missing: " + String.join(", ", missing)
          + ". Apply the scripts " + Migration.LOCATION + database + "/V*.sql of the AgentLoop jar (as a DBA, or"
          + " with Flyway), or let AgentLoop apply them with agentloop.database.schema-update=true");
    }
  }

  /** The database's name as AgentLoop's script folders have it (Camunda's names: h2, postgres). */
  private static String database(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
      return product.contains("postgres") ? "postgres" : product.contains("h2") ? "h2" : product;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read which database this is", e);
    }
  }

  /**
   * A database of before the costs of calls moved onto their steps (a row fewer to write for every
   * call) still has them in a table of their own: they move onto their steps (the columns version 1
   * added), and the table goes.
   */
  private static void moveCostsOntoSteps(DataSource dataSource) {
    if (!SchemaInspection.tableExists(dataSource, OLD_COST_TABLE)) {
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
}
