package dev.agentloop.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.cluster.PostgresServer;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.trace.schema.TraceSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The charges of a tree of agents on H2 and on a real PostgreSQL, the database of a cluster: children charging their
 * caller's budget side by side from several connections get exactly what it has left and no call more; a grandchild
 * is charged to both runs above it, refused by the one whose budget is spent with nothing charged to the other; the
 * run's row is read and locked with what its calls spent.
 */
class TreeChargesTest {

  private static final Budget TEN = new Budget(Integer.MAX_VALUE, 10, 10, 1_000);

  @Test
  void should_give_children_side_by_side_exactly_what_their_caller_has_left_on_h2() throws Exception {
    givesExactlyWhatIsLeft(h2());
  }

  @Test
  void should_give_children_side_by_side_exactly_what_their_caller_has_left_on_postgresql() throws Exception {
    givesExactlyWhatIsLeft(PostgresServer.newDatabase("tree_charges").dataSource());
  }

  @Test
  void should_charge_every_run_above_and_refuse_at_the_one_whose_budget_is_spent_on_postgresql() {
    nestedCharges(PostgresServer.newDatabase("tree_charges_nested").dataSource());
  }

  @Test
  void should_charge_every_run_above_and_refuse_at_the_one_whose_budget_is_spent_on_h2() {
    nestedCharges(h2());
  }

  @Test
  void should_hold_a_child_started_again_to_what_a_caller_that_went_on_spending_has_left_on_postgresql() {
    startedAgain(PostgresServer.newDatabase("tree_charges_again").dataSource());
  }

  @Test
  void should_hold_a_child_started_again_to_what_a_caller_that_went_on_spending_has_left_on_h2() {
    startedAgain(h2());
  }

  private static void startedAgain(DataSource dataSource) {
    // given a caller that had spent 2 model calls when it called a child, and 5 more itself since (8 of 10 in all)
    TraceSchema.prepare(dataSource, true);
    StepStore store = store(dataSource);
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    TreeCharges charges = new TreeCharges(jdbc, new DataSourceTransactionManager(dataSource));
    String caller = run(store, List.of(), null);
    charges.open(caller, new Spending(1, 2, 1, 0), TEN);
    String child = run(store, List.of(caller), null);
    charges.reserve(store.run(child), 1, 0);
    jdbc.update("UPDATE agentloop_run SET model_calls = 7 WHERE run_id = ?", caller);

    // when the child is started again (a person's edit re-opened it): a new run that joins its caller's tree
    String again = run(store, List.of(), null);
    charges.join(again, List.of(caller), new Budget(20, 40, 40, 0));

    // then it spends from the caller's budget, with what the caller has left now: 10 less its own 7 and the child's 1
    RunRecord joined = store.run(again);
    assertThat(joined.tree().callers()).containsExactly(caller);
    assertThat(joined.budget()).isEqualTo(new Budget(20, 2, 9, 1_000));
    assertThat(charges.reserve(joined, 1, 0)).isEmpty();
    assertThat(charges.reserve(joined, 1, 0)).isEmpty();
    assertThat(charges.reserve(joined, 1, 0)).hasValueSatisfying(refused -> {
      assertThat(refused.runId()).isEqualTo(caller);
      assertThat(refused.own().modelCalls()).isEqualTo(7);
      assertThat(refused.calls().modelCalls()).isEqualTo(3);
    });

    // and a person's new limit for the caller holds for its children's charges too
    store.raiseBudget(caller, new Budget(20, 11, 10, 1_000));
    assertThat(charges.reserve(joined, 1, 0)).isEmpty();
    assertThat(charges.reserve(joined, 1, 0)).isPresent();
    assertThat(store.run(caller).tree().calls().modelCalls()).isEqualTo(4);
    // a run no agent called joins nothing
    String alone = run(store, List.of(), null);
    charges.join(alone, List.of(), TEN);
    assertThat(store.run(alone).tree().callers()).isEmpty();
    assertThat(store.run(alone).budget()).isNull();
  }

  private static void givesExactlyWhatIsLeft(DataSource dataSource) throws Exception {
    // given a caller that spent 2 model calls itself and called 8 children
    TraceSchema.prepare(dataSource, true);
    StepStore store = store(dataSource);
    TreeCharges charges = new TreeCharges(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource));
    String caller = run(store, List.of(), null);
    charges.open(caller, new Spending(1, 2, 8, 0), TEN);
    List<RunRecord> children = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      children.add(store.run(run(store, List.of(caller), null)));
    }

    // when each child asks for model calls until its caller refuses, all at once, each on its own connection
    AtomicInteger granted = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(children.size());
    List<Future<TreeCharges.Caller>> refusals = new ArrayList<>();
    for (RunRecord child : children) {
      refusals.add(threads.submit(() -> {
        start.await();
        while (true) {
          Optional<TreeCharges.Caller> refused = charges.reserve(child, 1, 0);
          if (refused.isPresent()) {
            return refused.get();
          }
          granted.incrementAndGet();
        }
      }));
    }
    start.countDown();
    List<TreeCharges.Caller> refused = new ArrayList<>();
    for (Future<TreeCharges.Caller> refusal : refusals) {
      refused.add(refusal.get(60, TimeUnit.SECONDS));
    }
    threads.shutdown();

    // then together they got the 8 model calls the caller had left, and each was refused naming it
    assertThat(granted.get()).isEqualTo(8);
    assertThat(refused).allSatisfy(refusal -> {
      assertThat(refusal.runId()).isEqualTo(caller);
      assertThat(refusal.own().modelCalls() + refusal.calls().modelCalls()).isEqualTo(10);
    });
    // and the caller's row, read and locked as a command reads it, says what its calls spent
    RunRecord read = new TransactionTemplate(new DataSourceTransactionManager(dataSource))
        .execute(status -> store.lockRun(caller));
    assertThat(read.tree().calls()).isEqualTo(new Spending(0, 8, 0, 0));
    assertThat(read.tree().lastBy()).isIn(children.stream().map(RunRecord::runId).toList());
  }

  private static void nestedCharges(DataSource dataSource) {
    // given a top-level run with 1 model call left, a child of it with room, and the child's child
    TraceSchema.prepare(dataSource, true);
    StepStore store = store(dataSource);
    TreeCharges charges = new TreeCharges(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource));
    String top = run(store, List.of(), null);
    charges.open(top, new Spending(1, 8, 1, 0), TEN);
    String child = run(store, List.of(top), TEN.within(TEN, new Spending(0, 8, 1, 0)));
    charges.open(child, new Spending(1, 0, 1, 0), TEN);
    RunRecord grandchild = store.run(run(store, List.of(top, child), null));
    assertThat(store.run(child).budget().maxModelCalls()).as("what the top-level run had left").isEqualTo(2);

    // when the grandchild asks for three model calls, one after the other, and spends tokens
    Optional<TreeCharges.Caller> first = charges.reserve(grandchild, 1, 0);
    Optional<TreeCharges.Caller> second = charges.reserve(grandchild, 1, 0);
    Optional<TreeCharges.Caller> third = charges.reserve(grandchild, 1, 0);
    charges.charge(grandchild, 0, 0, 120);

    // then two went out, charged to both runs above; the third was refused by the top-level run, charged to neither
    assertThat(first).isEmpty();
    assertThat(second).isEmpty();
    assertThat(third).hasValueSatisfying(refused -> assertThat(refused.runId()).isEqualTo(top));
    assertThat(store.run(top).tree().calls()).isEqualTo(new Spending(0, 2, 0, 120));
    assertThat(store.run(child).tree().calls()).isEqualTo(new Spending(0, 2, 0, 120));
    assertThat(store.run(child).tree().lastBy()).isEqualTo(grandchild.runId());
    // and a call given back (it failed before the model answered) leaves both runs above
    charges.release(grandchild, 1, 0);
    assertThat(store.run(top).tree().calls().modelCalls()).isEqualTo(1);
    assertThat(store.run(child).tree().calls().modelCalls()).isEqualTo(1);
    assertThat(store.run(grandchild.runId()).tree().callers()).containsExactly(top, child);
  }

  private static StepStore store(DataSource dataSource) {
    return new StepStore(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource),
        new ObjectMapper());
  }

  private static String run(StepStore store, List<String> callers, Budget budget) {
    String runId = UUID.randomUUID().toString();
    store.createRun(runId, "react-agent", "a question", callers, budget, null);
    return runId;
  }

  private static DataSource h2() {
    return new DriverManagerDataSource("jdbc:h2:mem:tree-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
  }
}
