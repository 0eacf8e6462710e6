package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunCosts;
import dev.agentloop.api.RunStatus;
import dev.agentloop.cluster.PostgresServer;
import dev.agentloop.internal.trace.schema.TraceSchema;
import dev.agentloop.internal.trace.step.Plan;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The step-store schema and queries on a real PostgreSQL: its versioned scripts, applied once however
 * often the nodes of a cluster start on it, and the upgrade of a database of an earlier release.
 */
class StepStoreOnPostgresTest {

  static DataSource dataSource;
  static StepStore store;

  @BeforeAll
  static void createSchemaTwice() {
    dataSource = PostgresServer.newDatabase("step_store").dataSource();
    TraceSchema.prepare(dataSource, true);
    TraceSchema.prepare(dataSource, true);
    store = new StepStore(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource), new ObjectMapper());
  }

  @Test
  void should_create_the_tables_and_indexes_once_however_often_the_script_runs() {
    List<String> indexes = new JdbcTemplate(dataSource).queryForList(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'agentloop_step' ORDER BY indexname", String.class);

    assertThat(indexes).hasSize(4);
    assertThat(indexes).anySatisfy(index -> assertThat(index).contains("(author, run_id)"));
    assertThat(indexes).anySatisfy(index -> assertThat(index).contains("(run_id, status, step_no DESC)"));
    assertThat(indexes).anySatisfy(index -> assertThat(index).contains("(run_id, kind, step_no DESC)"));
  }

  @Test
  void should_append_and_read_the_recent_path_with_times_and_json_intact() {
    // given
    String runId = newRun();
    RunHead head = store.run(runId).head();
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    // when
    head = store.append(head, List.of(step(StepKind.PLAN)), Usage.modelCall(7)).head();
    for (int i = 0; i < 5; i++) {
      head = store.append(head, List.of(step(StepKind.THOUGHT), step(StepKind.ACTION)), Usage.modelCall(1)).head();
    }

    // then
    assertThat(store.recentPath(runId, 3)).extracting(Step::stepNo).containsExactly(9, 10, 11);
    assertThat(store.latestActive(runId, StepKind.PLAN)).hasValueSatisfying(plan -> {
      assertThat(((Plan) plan.content()).steps()).containsExactly("PLAN in ünïcode");
      assertThat(plan.createdAt()).isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
    });
    RunRecord run = store.run(runId);
    assertThat(run.head().stepCount()).isEqualTo(11);
    assertThat(run.tokens()).isEqualTo(12);
    assertThat(run.createdAt()).isBefore(store.activePath(runId).get(10).createdAt().plusMillis(1));
  }

  @Test
  void should_refuse_an_append_against_a_stale_head_and_write_nothing() {
    String runId = newRun();
    RunHead head = store.run(runId).head();
    store.append(head, List.of(step(StepKind.PLAN)), Usage.NONE);

    assertThatThrownBy(() -> store.append(head, List.of(step(StepKind.THOUGHT)), Usage.toolCall()))
        .isInstanceOf(StaleHeadException.class);

    assertThat(store.allSteps(runId)).extracting(Step::kind).containsExactly(StepKind.PLAN);
  }

  @Test
  void should_let_exactly_one_of_two_nodes_append_against_the_same_head() throws Exception {
    // given two appends against one head, as two nodes would after a lock expired under a slow one
    String runId = newRun();
    RunHead head = store.run(runId).head();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService nodes = Executors.newFixedThreadPool(2);
    try {
      List<Future<Appended>> appends = List.of(
          nodes.submit(() -> appendAfter(start, head, StepKind.THOUGHT)),
          nodes.submit(() -> appendAfter(start, head, StepKind.OBSERVATION)));

      // when both run at once (PostgreSQL makes the second wait for the first's row lock, then re-checks the version)
      start.countDown();
      List<Object> outcomes = new ArrayList<>();
      for (Future<Appended> append : appends) {
        try {
          outcomes.add(append.get(30, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
          outcomes.add(e.getCause());
        }
      }

      // then one wins, the other is refused, and one step is stored
      assertThat(outcomes).filteredOn(Appended.class::isInstance).hasSize(1);
      assertThat(outcomes).filteredOn(StaleHeadException.class::isInstance).hasSize(1);
      assertThat(store.allSteps(runId)).hasSize(1);
      assertThat(store.run(runId).head().stepCount()).isEqualTo(1);
    } finally {
      nodes.shutdownNow();
    }
  }

  @Test
  void should_mark_the_steps_after_a_rewind_superseded_and_branch_below_it() {
    // given
    String runId = newRun();
    RunHead head = store.append(store.run(runId).head(),
        List.of(step(StepKind.PLAN), step(StepKind.THOUGHT), step(StepKind.ACTION)), Usage.NONE).head();

    // when
    head = store.rewind(head, store.findStep(runId, 1).orElseThrow());
    store.append(head, List.of(step(StepKind.THOUGHT)), Usage.NONE);

    // then
    assertThat(store.allSteps(runId)).extracting(Step::stepNo, Step::parentNo, Step::status).containsExactly(
        tuple(1, null, StepStatus.ACTIVE), tuple(2, 1, StepStatus.SUPERSEDED), tuple(3, 2, StepStatus.SUPERSEDED),
        tuple(4, 1, StepStatus.ACTIVE));
    assertThat(store.activePath(runId)).extracting(Step::stepNo).containsExactly(1, 4);
  }

  @Test
  void should_record_how_a_run_ended() {
    String runId = newRun();

    store.markEnded(runId, RunStatus.ANSWERED, null);

    assertThat(store.run(runId).status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(store.run(runId).endedAt()).isNotNull();
  }

  @Test
  void should_keep_costs_and_prompts_beside_the_steps_and_search_runs() {
    // given two model calls of one run, the second with a prompt that grew from the first
    String runId = newRun();
    RunInsights insights = new RunInsights(new JdbcTemplate(dataSource), new ObjectMapper());
    ObjectMapper json = new ObjectMapper();
    com.fasterxml.jackson.databind.node.ArrayNode first = json.createArrayNode();
    first.addObject().put("role", "system").put("text", "Be brief.");
    first.addObject().put("role", "user").put("text", "a question");
    com.fasterxml.jackson.databind.node.ArrayNode second = first.deepCopy();
    second.addObject().put("role", "assistant").put("text", "thinking");
    RunHead head = store.append(store.run(runId).head(), List.of(step(StepKind.PLAN)),
        Usage.modelCall(StepCost.modelCall(12, 100L, 20L, null), new SentPrompt("PLAN", first, json.createArrayNode())))
        .head();
    head = store.append(head, List.of(step(StepKind.THOUGHT), step(StepKind.ACTION)),
        Usage.modelCall(StepCost.modelCall(30, null, null, null), new SentPrompt("PLAN", second, json.createArrayNode())))
        .head();
    store.append(head, List.of(step(StepKind.OBSERVATION)), Usage.toolCalls(1, List.of(StepCost.toolCall(7L))));

    // then
    assertThat(insights.costs(runId)).containsOnlyKeys(1, 2, 4);
    assertThat(insights.costs(runId).get(1).totalTokens()).isEqualTo(120);
    assertThat(insights.totals(runId)).isEqualTo(new RunCosts(42, 7, 100L, 20L, 1));
    assertThat(insights.prompt(runId, 2).orElseThrow().messages()).isEqualTo(second);
    assertThat(new JdbcTemplate(dataSource).queryForObject(
        "SELECT segments FROM agentloop_prompt WHERE run_id = ? AND step_no = 2", String.class, runId))
        .isEqualTo("[{\"ref\":[0,2]},{\"role\":\"assistant\",\"text\":\"thinking\"}]");
    RunInsights.Page found = insights.search(new RunQuery("react-agent", java.util.Set.of(RunStatus.RUNNING),
        Instant.now().minusSeconds(3600), null, "model", "A QUES", 0, 500));
    assertThat(found.runs()).extracting(RunRecord::runId).contains(runId);
    assertThat(insights.search(new RunQuery("react-agent", java.util.Set.of(), null, null, null, "50%_", 0, 10))
        .total()).isZero();
  }

  @Test
  void should_bring_a_database_of_a_release_before_versioned_scripts_to_version_1_with_its_costs_on_their_steps() {
    // given the tables as a release before versioned scripts created them, a step, and its cost where
    // a database of the release before that kept it
    DataSource earlier = PostgresServer.newDatabase("step_store_earlier").dataSource();
    new ResourceDatabasePopulator(new ClassPathResource("dev/agentloop/internal/trace/schema.sql")).execute(earlier);
    // (written as that release wrote it: today's store writes columns its tables do not have yet)
    String runId = UUID.randomUUID().toString();
    JdbcTemplate jdbc = new JdbcTemplate(earlier);
    jdbc.update("INSERT INTO agentloop_step (run_id, step_no, kind, turn, content, status, author, created_at)"
        + " VALUES (?, 1, 'PLAN', 0, '{}', 'ACTIVE', 'model', CURRENT_TIMESTAMP)", runId);
    jdbc.execute("CREATE TABLE agentloop_step_cost (run_id VARCHAR(64) NOT NULL, step_no INT NOT NULL,"
        + " model_call BOOLEAN NOT NULL, latency_ms BIGINT, prompt_tokens BIGINT, completion_tokens BIGINT,"
        + " total_tokens BIGINT, PRIMARY KEY (run_id, step_no))");
    jdbc.update("INSERT INTO agentloop_step_cost VALUES (?, 1, TRUE, 120, 30, 7, 37)", runId);

    // when a node starts on it
    TraceSchema.prepare(earlier, true);

    // then the cost is on its step, the old table is gone, and the tables are the newest version
    assertThat(new RunInsights(jdbc, new ObjectMapper()).costs(runId))
        .containsExactly(Map.entry(1, new StepCost(120L, true, 30L, 7L, 37L)));
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM pg_tables WHERE tablename = 'agentloop_step_cost'",
        Integer.class)).isZero();
    assertThat(jdbc.queryForObject("SELECT MAX(version) FROM agentloop_schema_version", Integer.class)).isEqualTo(8);
  }

  private static String newRun() {
    String runId = UUID.randomUUID().toString();
    store.createRun(runId, "react-agent", "a question");
    return runId;
  }

  private static Appended appendAfter(CountDownLatch start, RunHead head, StepKind kind) throws InterruptedException {
    start.await();
    return store.append(head, List.of(step(kind)), Usage.modelCall(1));
  }

  private static NewStep step(StepKind kind) {
    return TestSteps.step(kind, kind + " in ünïcode", "model");
  }
}
