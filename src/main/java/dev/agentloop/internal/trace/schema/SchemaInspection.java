package dev.agentloop.internal.trace.schema;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What of AgentLoop's tables a database has, read from its metadata (no DDL, no rights beyond reading),
 * against what the scripts create: the tables and columns that are missing, by name.
 */
final class SchemaInspection {

  static final String VERSION_TABLE = "agentloop_schema_version";

  private static final Pattern CREATE_TABLE = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?(\\w+) \\((.*?)\\n\\);",
      Pattern.DOTALL);
  private static final Pattern ADD_COLUMN = Pattern.compile("ALTER TABLE (\\w+) ADD COLUMN (?:IF NOT EXISTS )?(\\w+)");
  private static final Pattern COLUMN = Pattern.compile("^\\s*(\\w+)\\s+\\w+", Pattern.MULTILINE);

  private SchemaInspection() {}

  /** The tables and their columns that the scripts create, in script order. */
  static Map<String, Set<String>> expected(List<Migration> migrations) {
    Map<String, Set<String>> tables = new LinkedHashMap<>();
    for (Migration migration : migrations) {
      String sql = migration.sql();
      Matcher table = CREATE_TABLE.matcher(sql);
      while (table.find()) {
        Set<String> columns = tables.computeIfAbsent(table.group(1), name -> new LinkedHashSet<>());
        Matcher column = COLUMN.matcher(table.group(2));
        while (column.find()) {
          if (!column.group(1).equals("PRIMARY")) {
            columns.add(column.group(1));
          }
        }
      }
      Matcher added = ADD_COLUMN.matcher(sql);
      while (added.find()) {
        tables.computeIfAbsent(added.group(1), name -> new LinkedHashSet<>()).add(added.group(2));
      }
    }
    return tables;
  }

  /** What is missing, e.g. {@code table agentloop_prompt}, {@code column agentloop_step.cost_total_tokens}. */
  static List<String> missing(DataSource dataSource, Map<String, Set<String>> expected) {
    List<String> missing = new ArrayList<>();
    try (Connection connection = dataSource.getConnection()) {
      DatabaseMetaData metadata = connection.getMetaData();
      for (Map.Entry<String, Set<String>> table : expected.entrySet()) {
        Set<String> present = columns(metadata, table.getKey());
        if (present.isEmpty()) {
          missing.add("table " + table.getKey());
          continue;
        }
        table.getValue().stream().filter(column -> !present.contains(column))
            .forEach(column -> missing.add("column " + table.getKey() + "." + column));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the database's tables", e);
    }
    return missing;
  }

  static boolean tableExists(DataSource dataSource, String table) {
    try (Connection connection = dataSource.getConnection()) {
      return !columns(connection.getMetaData(), table).isEmpty();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the database's tables", e);
    }
  }

  /** The newest version of AgentLoop's tables in place; 0 where the version table is not there. */
  static int version(DataSource dataSource) {
    if (!tableExists(dataSource, VERSION_TABLE)) {
      return 0;
    }
    Integer version = new JdbcTemplate(dataSource).queryForObject("SELECT MAX(version) FROM " + VERSION_TABLE,
        Integer.class);
    return version == null ? 0 : version;
  }

  /** The columns of a table, lower case, however the database cases unquoted names (H2 upper, PostgreSQL lower). */
  private static Set<String> columns(DatabaseMetaData metadata, String table) throws SQLException {
    Set<String> columns = new LinkedHashSet<>();
    for (String cased : new String[] {table.toUpperCase(Locale.ROOT), table.toLowerCase(Locale.ROOT)}) {
      try (ResultSet rows = metadata.getColumns(null, null, cased, null)) {
        while (rows.next()) {
          columns.add(rows.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
        }
      }
      if (!columns.isEmpty()) {
        return columns;
      }
    }
    return columns;
  }
}
