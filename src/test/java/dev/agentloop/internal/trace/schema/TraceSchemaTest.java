package dev.agentloop.internal.trace.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.trace.ConversationClaims;
import dev.agentloop.internal.trace.DatabaseSettings;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.StepStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * AgentLoop's tables at start, on H2: created from the versioned scripts, a database of the current
 * release upgraded with its rows kept, no DDL at all when the tables are current (proved with a user
 * that may only read and write rows), and, where AgentLoop must not change the schema, a start that
 * fails naming what is missing and changes nothing.
 */
class TraceSchemaTest {

  /** Every version of the scripts, in order. */
  static final List<Integer> VERSIONS = List.of(1, 2, 3, 4, 5, 6, 7, 8);
  static final List<String> TABLES = List.of("agentloop_run", "agentloop_step", "agentloop_decision",
      "agentloop_prompt", "agentloop_schema_version", "agentloop_conversation", "agentloop_agent_owner",
      "agentloop_tree_use", "agentloop_migration", "agentloop_migration_run", "agentloop_evaluation",
      "agentloop_evaluation_case");

  @Test
  void should_create_every_table_on_an_empty_database_and_then_start_without_ddl() {
    // given
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");

    // when
    TraceSchema.prepare(owner, true);

    // then
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    assertThat(tables(jdbc)).containsExactlyInAnyOrderElementsOf(TABLES);
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    // and a start as a user who may not change the schema succeeds, updating or not: nothing to apply
    DataSource application = dmlOnlyUser(jdbc, url);
    TraceSchema.prepare(application, true);
    TraceSchema.prepare(application, false);
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
  }

  @Test
  void should_upgrade_a_database_of_the_current_release_and_keep_its_runs() {
    // given the tables as the current release creates them (its idempotent script), with a run in them
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/internal/trace/schema.sql")).execute(owner);
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    jdbc.update("INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
        + " model_calls, tool_calls, tokens, created_at) VALUES ('r-1', 'react-agent', 'Why?', 'ANSWERED', 1, 0, 1,"
        + " 0, 0, 0, CURRENT_TIMESTAMP)");
    assertThatThrownBy(() -> TraceSchema.prepare(owner, false))
        .hasMessageContainingAll(
            "column agentloop_step.cost_model",
            "column agentloop_decision.from_version",
            "column agentloop_decision.to_version",
            "table agentloop_schema_version",
            "table agentloop_conversation",
            "table agentloop_agent_owner",
            "table agentloop_tree_use",
            "table agentloop_migration",
            "table agentloop_migration_run");

    // when
    TraceSchema.prepare(owner, true);

    // then
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    assertThat(jdbc.queryForObject("SELECT question FROM agentloop_run WHERE run_id = 'r-1'", String.class))
        .isEqualTo("Why?");
    TraceSchema.prepare(dmlOnlyUser(jdbc, url), false);
  }

  @Test
  void should_bring_a_database_of_an_earlier_release_up_to_date_with_the_scripts_alone_as_a_dba_or_flyway_would()
      throws IOException {
    // given the tables an earlier release's schema.sql created, with a run in them
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/internal/trace/schema.sql")).execute(owner);
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    jdbc.update("INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
        + " model_calls, tool_calls, tokens, created_at) VALUES ('r-1', 'react-agent', 'Why?', 'ANSWERED', 1, 0, 1,"
        + " 0, 0, 0, CURRENT_TIMESTAMP)");

    // when the versioned scripts are applied one after the other, as they are, version 1 twice
    List<Resource> scripts = versionedScripts();
    new ResourceDatabasePopulator(scripts.get(0)).execute(owner);
    scripts.forEach(script -> new ResourceDatabasePopulator(script).execute(owner));

    // then the tables are current, with their rows, and a start that only checks them succeeds
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    assertThat(jdbc.queryForObject("SELECT question FROM agentloop_run WHERE run_id = 'r-1'", String.class))
        .isEqualTo("Why?");
    TraceSchema.prepare(dmlOnlyUser(jdbc, url), false);
  }

  @Test
  void should_move_the_costs_a_database_of_an_earlier_release_kept_in_a_table_of_their_own_onto_their_steps() {
    // given a step, and its costs where a database of an earlier release kept them
    DataSource owner = dataSource(newDatabase(), "sa");
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/internal/trace/schema.sql")).execute(owner);
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    jdbc.update("INSERT INTO agentloop_step (run_id, step_no, kind, turn, content, status, author, created_at)"
        + " VALUES ('r-1', 1, 'PLAN', 1, '{}', 'ACTIVE', 'model', CURRENT_TIMESTAMP)");
    jdbc.execute("CREATE TABLE agentloop_step_cost (run_id VARCHAR(64) NOT NULL, step_no INT NOT NULL,"
        + " model_call BOOLEAN NOT NULL, latency_ms BIGINT, prompt_tokens BIGINT, completion_tokens BIGINT,"
        + " total_tokens BIGINT, PRIMARY KEY (run_id, step_no))");
    jdbc.update("INSERT INTO agentloop_step_cost VALUES ('r-1', 1, TRUE, 120, 30, 7, 37)");

    // when
    TraceSchema.prepare(owner, true);

    // then
    assertThat(new RunInsights(jdbc, new ObjectMapper()).costs("r-1"))
        .isEqualTo(Map.of(1, new StepCost(120L, true, 30L, 7L, 37L)));
    assertThat(tables(jdbc)).doesNotContain("agentloop_step_cost");
  }

  @Test
  void should_add_the_prompt_cache_columns_to_a_database_of_version_1_and_keep_the_costs_of_its_steps() {
    // given a database with only version 1 of the scripts, and a step with its cost
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    new ResourceDatabasePopulator(new ClassPathResource("META-INF/agentloop/db/h2/V1__agentloop_tables.sql"))
        .execute(owner);
    jdbc.update("INSERT INTO agentloop_step (run_id, step_no, kind, turn, content, status, author, created_at,"
        + " cost_model_call, cost_latency_ms, cost_prompt_tokens, cost_completion_tokens, cost_total_tokens)"
        + " VALUES ('r-1', 1, 'PLAN', 1, '{}', 'ACTIVE', 'model', CURRENT_TIMESTAMP, TRUE, 120, 30, 7, 37)");
    // a start that may not change the schema refuses it, naming what versions 2, 3, 5 and 7 add
    assertThatThrownBy(() -> TraceSchema.prepare(owner, false))
        .hasMessageContainingAll(
            "column agentloop_step.cost_cache_read_tokens",
            "column agentloop_step.cost_cache_write_tokens",
            "column agentloop_step.cost_model",
            "table agentloop_conversation",
            "table agentloop_agent_owner",
            "table agentloop_tree_use");

    // when
    TraceSchema.prepare(owner, true);

    // then the step keeps its cost, with nothing known of a cache or a model, and the tables are current
    assertThat(new RunInsights(jdbc, new ObjectMapper()).costs("r-1"))
        .isEqualTo(Map.of(1, new StepCost(120L, true, 30L, 7L, 37L, null, null, null)));
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    TraceSchema.prepare(dmlOnlyUser(jdbc, url), false);
  }

  @Test
  void should_add_the_conversation_claims_to_a_database_of_version_2_and_keep_its_runs() {
    // given a database with versions 1 and 2 of the scripts, and a run in it
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    new ResourceDatabasePopulator(new ClassPathResource("META-INF/agentloop/db/h2/V1__agentloop_tables.sql"),
        new ClassPathResource("META-INF/agentloop/db/h2/V2__prompt_cache_and_model_of_costs.sql")).execute(owner);
    jdbc.update("INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
        + " model_calls, tool_calls, tokens, created_at) VALUES ('r-1', 'react-agent', 'Why?', 'RUNNING', 1, 0, 1,"
        + " 0, 0, 0, CURRENT_TIMESTAMP)");
    // a start that may not change the schema refuses it, naming what versions 3 to 5 add
    assertThatThrownBy(() -> TraceSchema.prepare(owner, false))
        .hasMessageContainingAll(
            "column agentloop_run.callers",
            "column agentloop_run.max_steps",
            "column agentloop_run.max_model_calls",
            "column agentloop_run.max_tool_calls",
            "column agentloop_run.max_tokens",
            "table agentloop_conversation",
            "table agentloop_agent_owner",
            "table agentloop_tree_use");

    // when
    TraceSchema.prepare(owner, true);

    // then the run is kept, holds no conversation id, and one can be claimed for it once only
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    assertThat(jdbc.queryForObject("SELECT question FROM agentloop_run WHERE run_id = 'r-1'", String.class))
        .isEqualTo("Why?");
    assertThat(jdbc.queryForObject("SELECT answer_schema FROM agentloop_run WHERE run_id = 'r-1'", String.class))
        .as("a run started before answer schemas answers as its agent says").isNull();
    ConversationClaims claims = new ConversationClaims(jdbc);
    assertThat(claims.holder("crm-1")).isEmpty();
    assertThat(claims.claim("crm-1", "r-1", null)).isTrue();
    assertThat(claims.claim("crm-1", "r-2", null)).as("a second claim of a held id").isFalse();
    assertThat(claims.claim("crm-1", "r-2", "r-0")).as("a take-over from a run that does not hold it").isFalse();
    assertThat(claims.holder("crm-1")).contains("r-1");
    assertThat(claims.claim("crm-1", "r-2", "r-1")).as("a take-over from the run that holds it").isTrue();
    assertThat(claims.holder("crm-1")).contains("r-2");
    TraceSchema.prepare(dmlOnlyUser(jdbc, url), false);
  }

  @Test
  void should_add_budgets_over_trees_and_migrations_to_a_database_of_version_3_keeping_its_runs_and_decisions() {
    // given a database with versions 1 to 3 of the scripts, and a run and a decision in it
    String url = newDatabase();
    DataSource owner = dataSource(url, "sa");
    JdbcTemplate jdbc = new JdbcTemplate(owner);
    new ResourceDatabasePopulator(new ClassPathResource("META-INF/agentloop/db/h2/V1__agentloop_tables.sql"),
        new ClassPathResource("META-INF/agentloop/db/h2/V2__prompt_cache_and_model_of_costs.sql"),
        new ClassPathResource("META-INF/agentloop/db/h2/V3__conversation_claims.sql")).execute(owner);
    jdbc.update("INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
        + " model_calls, tool_calls, tokens, created_at) VALUES ('r-1', 'react-agent', 'Why?', 'RUNNING', 1, 0, 1,"
        + " 3, 2, 40, CURRENT_TIMESTAMP)");
    jdbc.update("INSERT INTO agentloop_decision (run_id, step_no, decision, author, reason, decided_at)"
        + " VALUES ('r-1', 2, 'accept', 'rita', NULL, CURRENT_TIMESTAMP)");
    // a start that may not change the schema refuses it, naming what the later versions add
    assertThatThrownBy(() -> TraceSchema.prepare(owner, false))
        .hasMessageContainingAll(
            "column agentloop_run.callers",
            "column agentloop_run.max_steps",
            "column agentloop_run.max_model_calls",
            "column agentloop_run.max_tool_calls",
            "column agentloop_run.max_tokens",
            "table agentloop_agent_owner",
            "table agentloop_tree_use");

    // when
    TraceSchema.prepare(owner, true);

    // then the run is kept as it was: on its agent's budget, called by no agent, having called none
    assertThat(versions(jdbc)).containsExactlyElementsOf(VERSIONS);
    RunRecord run = new StepStore(jdbc, new DataSourceTransactionManager(owner), new ObjectMapper()).run("r-1");
    assertThat(run.budget()).isNull();
    assertThat(run.tree()).isEqualTo(RunRecord.Tree.NONE);
    assertThat(run.spent()).isEqualTo(new Spending(1, 3, 2, 40));
    // and the decision is kept, of no move, and a move is kept with its versions
    DecisionLog decisions = new DecisionLog(jdbc);
    decisions.recordMigration("r-1", 2, "otto", "the fixed prompt", 1, 2);
    assertThat(decisions.of("r-1")).extracting(Decision::decision, Decision::fromVersion, Decision::toVersion)
        .containsExactly(tuple("accept", null, null), tuple("migrate", 1, 2));
    TraceSchema.prepare(dmlOnlyUser(jdbc, url), false);
  }

  @Test
  void should_only_check_without_schema_update_and_name_every_missing_table_and_column() {
    // given an empty database, and one whose step table lacks a column
    DataSource empty = dataSource(newDatabase(), "sa");
    DataSource lacking = dataSource(newDatabase(), "sa");
    TraceSchema.prepare(lacking, true);
    new JdbcTemplate(lacking).execute("ALTER TABLE agentloop_step DROP COLUMN cost_total_tokens");

    // when / then
    assertThatThrownBy(() -> TraceSchema.prepare(empty, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("missing: table agentloop_run, table agentloop_step, table agentloop_decision,"
            + " table agentloop_prompt, table agentloop_schema_version")
        .hasMessageContaining("META-INF/agentloop/db/h2/V*.sql")
        .hasMessageContaining("agentloop.database.schema-update=true");
    assertThat(tables(new JdbcTemplate(empty))).isEmpty();
    assertThatThrownBy(() -> TraceSchema.prepare(lacking, false))
        .hasMessageContainingAll(
            "column agentloop_step.cost_total_tokens");
  }

  @Test
  void should_follow_camundas_schema_update_unless_set() {
    assertThat(new DatabaseSettings(null, false).updates("false")).isFalse();
    assertThat(new DatabaseSettings(null, false).updates("true")).isTrue();
    assertThat(new DatabaseSettings(null, false).updates("create-drop")).isTrue();
    assertThat(new DatabaseSettings(null, false).updates(null)).isTrue();
    assertThat(new DatabaseSettings(true, false).updates("false")).isTrue();
    assertThat(new DatabaseSettings(false, false).updates("true")).isFalse();
  }

  private static String newDatabase() {
    return "jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
  }

  private static DataSource dataSource(String url, String user) {
    return new DriverManagerDataSource(url, user, user.equals("sa") ? "" : user);
  }

  /** A user that may read and write rows of the tables, and do nothing else (no DDL). */
  private static DataSource dmlOnlyUser(JdbcTemplate owner, String url) {
    owner.execute("CREATE USER app PASSWORD 'app'");
    owner.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA PUBLIC TO app");
    // (setting DB_CLOSE_DELAY needs admin rights too: the database stays open through the owner's setting)
    DataSource application = dataSource(url.replace(";DB_CLOSE_DELAY=-1", ""), "app");
    assertThatThrownBy(() -> new JdbcTemplate(application).execute("CREATE TABLE agentloop_probe (id INT)"))
        .as("the user may not change the schema").isNotNull();
    return application;
  }

  private static List<Integer> versions(JdbcTemplate jdbc) {
    return jdbc.queryForList("SELECT version FROM agentloop_schema_version ORDER BY version", Integer.class);
  }

  private static List<String> tables(JdbcTemplate jdbc) {
    return jdbc.queryForList("SELECT LOWER(TABLE_NAME) FROM INFORMATION_SCHEMA.TABLES"
        + " WHERE TABLE_SCHEMA = 'PUBLIC'", String.class);
  }

  /** Every versioned script of the H2 folder, in the order of their versions. */
  private static List<Resource> versionedScripts() throws IOException {
    Resource[] found = new PathMatchingResourcePatternResolver().getResources("classpath*:META-INF/agentloop/db/h2/V*__*.sql");
    return Arrays.stream(found).sorted(Comparator.comparingInt(script ->
        Integer.parseInt(script.getFilename().substring(1, script.getFilename().indexOf("__"))))).toList();
  }
}
