package db.migration;

import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/** Camunda 7.24's tables on PostgreSQL, from the scripts in Camunda's engine jar (the same as its distribution's sql/create). */
public class V1__Camunda_7_24 extends BaseJavaMigration {

  private static final List<String> PARTS = List.of("engine", "history", "identity", "case.engine", "case.history",
      "decision.engine", "decision.history");

  @Override
  public void migrate(Context context) {
    for (String part : PARTS) {
      ScriptUtils.executeSqlScript(context.getConnection(),
          new ClassPathResource("org/camunda/bpm/engine/db/create/activiti.postgres.create." + part + ".sql"));
    }
  }
}
