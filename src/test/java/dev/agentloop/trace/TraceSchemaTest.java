package dev.agentloop.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.agent.AgentRuns;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** The schema script runs at every start; a database of an earlier version gets what it lacks. */
@AgentLoopTest
class TraceSchemaTest {

  @Autowired DataSource dataSource;
  @Autowired AgentRuns runs;
  @Autowired RunInsights insights;

  @Test
  void should_move_the_costs_a_database_kept_in_a_table_of_their_own_onto_their_steps() {
    // given a run, and its costs as a database of the version before kept them: in agentloop_step_cost
    String runId = runs.start(TestAgent.KEY, "multi-step: costs of an earlier version");
    Runs.awaitStatus(runs, runId, RunStatus.ANSWERED);
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    jdbc.execute("CREATE TABLE agentloop_step_cost (run_id VARCHAR(64) NOT NULL, step_no INT NOT NULL,"
        + " model_call BOOLEAN NOT NULL, latency_ms BIGINT, prompt_tokens BIGINT, completion_tokens BIGINT,"
        + " total_tokens BIGINT, PRIMARY KEY (run_id, step_no))");
    jdbc.update("UPDATE agentloop_step SET cost_model_call = NULL, cost_latency_ms = NULL WHERE run_id = ?", runId);
    jdbc.update("INSERT INTO agentloop_step_cost VALUES (?, 1, TRUE, 120, 30, 7, 37)", runId);
    jdbc.update("INSERT INTO agentloop_step_cost VALUES (?, 4, FALSE, 5, NULL, NULL, NULL)", runId);

    // when the application starts on it again
    TraceSchema.create(dataSource);

    // then every cost is on its step, and the old table is gone
    assertThat(insights.costs(runId)).isEqualTo(Map.of(
        1, new StepCost(120L, true, 30L, 7L, 37L),
        4, new StepCost(5L, false, null, null, null)));
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
        + " WHERE LOWER(TABLE_NAME) = 'agentloop_step_cost'", Integer.class)).isZero();

    // and a start on a database without it changes nothing
    TraceSchema.create(dataSource);
    assertThat(insights.costs(runId)).hasSize(2);
  }
}
