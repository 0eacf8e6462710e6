package dev.agentloop.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.trace.StaleHeadException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/** A worker of its own on a topic of its own, next to the app's worker, on the real engine. */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class ExternalTaskWorkerTest {

  private static final Duration LOCK = Duration.ofMinutes(5);

  @Autowired ProcessEngine engine;
  @Autowired PlatformTransactionManager transactionManager;
  @Autowired JdbcTemplate jdbc;
  private ExternalTaskWorker<Object> worker;
  private String topic;

  @BeforeEach
  void deployProcessOnATopicOfItsOwn(TestInfo test) {
    topic = "test." + test.getTestMethod().orElseThrow().getName();
    engine.getRepositoryService().createDeployment()
        .addModelInstance(topic + ".bpmn", Bpmn.createExecutableProcess(key()).camundaHistoryTimeToLive(1)
            .startEvent().serviceTask("work").camundaExternalTask(topic).endEvent().done())
        .deploy();
  }

  @AfterEach
  void stopWorker() {
    if (worker != null) {
      worker.stop();
    }
  }

  @Test
  void should_unlock_unfinished_tasks_on_stop_so_other_nodes_take_them_at_once() {
    // given a task whose handler never finishes
    startWorker(task -> new CompletableFuture<>());
    String instance = startInstance();
    await().atMost(Runs.PATIENCE).until(() -> task(instance).getWorkerId() != null);

    // when
    worker.stop();

    // then
    ExternalTask task = task(instance);
    assertThat(task.getWorkerId()).isNull();
    assertThat(task.getLockExpirationTime()).isNull();
  }

  @Test
  void should_finish_in_flight_tasks_within_the_grace_period() {
    // given a handler that answers shortly after stop() is called
    CompletableFuture<TaskResult<Object>> later = new CompletableFuture<>();
    startWorker(task -> later);
    String instance = startInstance();
    await().atMost(Runs.PATIENCE).until(() -> task(instance).getWorkerId() != null);

    // when
    CompletableFuture.runAsync(() -> later.complete(new TaskResult.Complete<>(Map.of(), () -> null)),
        CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
    worker.stop();

    // then
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance).count()).isZero();
  }

  @Test
  void should_keep_the_short_lock_of_a_task_it_works_on_for_longer_so_that_no_other_worker_takes_it() {
    // given a worker with a 1 s lock, working on a task for longer than that
    CompletableFuture<TaskResult<Object>> later = new CompletableFuture<>();
    worker = newWorker(task -> later, 3, 2, Duration.ofMillis(200), Duration.ofMinutes(1), Duration.ofSeconds(1));
    worker.start();
    String instance = startInstance();
    await().atMost(Runs.PATIENCE).until(() -> task(instance).getWorkerId() != null);

    // then another worker that fetches again and again for four lock durations gets nothing
    await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(100))
        .until(() -> engine.getExternalTaskService().fetchAndLock(1, "another-node").topic(topic, 60_000).execute()
            .isEmpty());
    assertThat(task(instance).getLockExpirationTime()).as("extended, never further than one lock duration ahead")
        .isAfter(new java.util.Date()).isBefore(new java.util.Date(System.currentTimeMillis() + 1_100));

    // and when the work is done, its result is taken: the lock was never lost
    later.complete(new TaskResult.Complete<>(Map.of(), () -> null));
    await().atMost(Runs.PATIENCE).until(() -> ended(instance));
  }

  @Test
  void should_drop_a_result_whose_trace_moved_on_quietly_and_run_the_task_again(CapturedOutput output) {
    // given a handler whose write finds the run's trace moved on meanwhile (an edit, another node's write), once
    AtomicInteger writes = new AtomicInteger();
    startWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> {
      if (writes.incrementAndGet() == 1) {
        throw new StaleHeadException(task.getProcessInstanceId(), 3);
      }
      return null;
    })));
    int before = output.length();

    // when
    String instance = startInstance();

    // then the stale result rolled back and was dropped, the task ran again on the new head and completed, and the
    // lost race is no error in the log: neither the worker's nor the engine's (ENGINE-16004 with a stack trace)
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance).count() == 0);
    assertThat(writes).hasValue(2);
    String logged = output.toString().substring(before);
    assertThat(logged).contains("dropped: run " + instance + " changed since version 3 was read")
        .doesNotContain("ENGINE-16004").doesNotContain(" ERROR ");
  }

  @Test
  void should_survive_handlers_that_throw_and_keep_serving() {
    // given a handler that fails in every way it can, then behaves
    startWorker(task -> switch (task.getBusinessKey()) {
      case "throws" -> throw new IllegalStateException("handler bug");
      case "null" -> null;
      case "fails" -> CompletableFuture.failedFuture(new IllegalStateException("async failure"));
      default -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> null));
    });

    // when
    List<String> broken = List.of(startInstance("throws"), startInstance("null"), startInstance("fails"));
    String healthy = startInstance("ok");

    // then the broken ones carry their failure with a retry pending, and the healthy one completed
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(healthy).count() == 0);
    for (String instance : broken) {
      await().atMost(Runs.PATIENCE).until(() -> task(instance).getErrorMessage() != null);
    }
    assertThat(task(broken.get(0)).getErrorMessage()).isEqualTo("handler bug — AgentLoop tries again in 60 s (3 retries left)");
    assertThat(task(broken.get(2)).getErrorMessage()).startsWith("async failure — ");
    assertThat(task(broken.get(1)).getErrorMessage()).isNotBlank();
  }

  @Test
  void should_take_back_at_once_the_tasks_its_id_held_before_a_crash() {
    // given a task locked for 5 minutes under the worker's id by a process that then died
    String instance = startInstance();
    assertThat(engine.getExternalTaskService().fetchAndLock(1, workerId()).topic(topic, LOCK.toMillis()).execute())
        .hasSize(1);

    // when the worker starts again under that id
    startWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> null)));

    // then it does the task now, not once the dead process's lock has expired
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance).count() == 0);
  }

  @Test
  void should_serve_nothing_while_another_running_process_holds_its_id_and_take_over_when_it_stops() {
    // given a worker serving under an id, and a second one started with the same id
    Set<String> servedBySecond = ConcurrentHashMap.newKeySet();
    startWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> null)));
    String first = startInstance();
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(first).count() == 0);
    ExternalTaskWorker<Object> second = newWorker(task -> {
      servedBySecond.add(task.getProcessInstanceId());
      return CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> null));
    });
    try {
      second.start();

      // when tasks arrive while both run
      List<String> whileBoth = List.of(startInstance(), startInstance(), startInstance());

      // then the first worker does them all, and the second takes none of its tasks away
      await().atMost(Runs.PATIENCE).until(() -> whileBoth.stream().allMatch(this::ended));
      assertThat(servedBySecond).isEmpty();

      // when the first worker stops, then the second takes over the id and serves
      worker.stop();
      worker = null;
      String afterwards = startInstance();
      await().atMost(Runs.PATIENCE).until(() -> ended(afterwards));
      assertThat(servedBySecond).containsExactly(afterwards);
    } finally {
      second.stop();
    }
  }

  @Test
  void should_count_down_retries_when_completing_throws_an_error() {
    // given a result whose write throws an Error, as a broken static initialiser does
    startWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> {
      throw new NoClassDefFoundError("Could not initialize class org.example.ELUtil");
    })));

    // when
    String instance = startInstance();

    // then it is a failure like any other: reported with its cause, a retry used up, not left to its lock
    await().atMost(Runs.PATIENCE).until(() -> task(instance).getErrorMessage() != null);
    assertThat(task(instance).getErrorMessage())
        .isEqualTo("Could not initialize class org.example.ELUtil — AgentLoop tries again in 60 s (3 retries left)");
    assertThat(task(instance).getRetries()).isEqualTo(3);
    assertThat(task(instance).getLockExpirationTime()).as("next try after the back-off (1 min), not the lock (5 min)")
        .isBefore(new java.util.Date(System.currentTimeMillis() + Duration.ofMinutes(2).toMillis()));
  }

  @Test
  void should_ask_the_engine_to_retry_after_the_base_back_off_then_twice_as_long_per_further_failure() {
    // given a handler that always fails, seeing at each attempt what the failure before it asked the engine for
    List<String> askedBefore = new CopyOnWriteArrayList<>();
    List<Long> attemptedAt = new CopyOnWriteArrayList<>();
    worker = newWorker(task -> {
      askedBefore.add(String.valueOf(task.getErrorMessage()));
      attemptedAt.add(System.nanoTime());
      return CompletableFuture.failedFuture(new IllegalStateException("model down"));
    }, 3, 2, Duration.ofMillis(100), Duration.ofMillis(500));
    worker.start();

    // when
    String instance = startInstance();

    // then three retries, 0.5 s, 1 s and 2 s after the failures before them (not 0.5, 0.5, 1), then an incident
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createIncidentQuery().processInstanceId(instance).count() == 1);
    assertThat(askedBefore).containsExactly("null",
        "model down — AgentLoop tries again in 500 ms (3 retries left)",
        "model down — AgentLoop tries again in 1 s (2 retries left)",
        "model down — AgentLoop tries again in 2 s (1 retry left)");
    for (int retry = 1; retry <= 3; retry++) {
      long waited = attemptedAt.get(retry) - attemptedAt.get(retry - 1);
      assertThat(Duration.ofNanos(waited)).as("wait before retry %d", retry)
          .isGreaterThanOrEqualTo(Duration.ofMillis(500L << (retry - 1)));
    }
  }

  @Test
  void should_raise_an_incident_that_leads_with_the_cause_and_says_who_retries_when_no_retry_is_left() {
    // given a worker with no retries, and a completion that fails with an Error that has no message
    worker = newWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> {
      throw new ExceptionInInitializerError(new IllegalStateException("Provider com.sun.el.ExpressionFactoryImpl not found"));
    })), 0);
    worker.start();

    // when
    String instance = startInstance();

    // then
    await().atMost(Runs.PATIENCE).until(() ->
        engine.getRuntimeService().createIncidentQuery().processInstanceId(instance).count() == 1);
    assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(instance).singleResult()
        .getIncidentMessage()).isEqualTo("ExceptionInInitializerError: IllegalStateException: Provider"
            + " com.sun.el.ExpressionFactoryImpl not found — no retries left: once the cause is fixed, an operator"
            + " retries the incident (Cockpit)");
  }

  @Test
  void should_commit_waiting_completions_together_and_redo_alone_what_a_failure_among_them_rolled_back()
      throws InterruptedException {
    // given a worker with one thread, held up completing a first task while four more are handled
    jdbc.execute("CREATE TABLE IF NOT EXISTS worker_batch_probe (business_key VARCHAR(200))");
    Map<String, CompletableFuture<TaskResult<Object>>> handled = new ConcurrentHashMap<>();
    worker = newWorker(task -> handled.computeIfAbsent(task.getBusinessKey(), key -> new CompletableFuture<>()), 3, 1);
    worker.start();
    List<String> keys = List.of("first", "ok-1", "ok-2", "flaky", "broken").stream().map(k -> topic + ":" + k).toList();
    Map<String, String> instances = keys.stream().collect(Collectors.toMap(k -> k, this::startInstance));
    await().atMost(Runs.PATIENCE).until(() -> handled.size() == keys.size());
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    handled.get(keys.get(0)).complete(new TaskResult.Complete<>(Map.of(), () -> {
      writing.countDown();
      return awaitQuietly(release);
    }));
    assertThat(writing.await(Runs.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    // when their results arrive meanwhile: two that write, one whose write fails once, one whose write always fails
    Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    for (String key : keys.subList(1, keys.size())) {
      handled.get(key).complete(new TaskResult.Complete<>(Map.of(), () -> {
        int attempt = writes.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        if (key.endsWith("broken") || (key.endsWith("flaky") && attempt == 1)) {
          throw new IllegalStateException("write of " + key + " failed");
        }
        return jdbc.update("INSERT INTO worker_batch_probe (business_key) VALUES (?)", key);
      }));
    }
    release.countDown();

    // then the failure rolled the batch back, and each was completed alone: the broken one failed, no other
    await().atMost(Runs.PATIENCE).until(() -> keys.subList(0, 4).stream().map(instances::get).allMatch(this::ended));
    String broken = instances.get(keys.get(4));
    await().atMost(Runs.PATIENCE).until(() -> task(broken).getErrorMessage() != null);
    assertThat(task(broken).getErrorMessage()).startsWith("write of " + keys.get(4) + " failed — AgentLoop tries again");
    assertThat(writes.get(keys.get(1)).get()).as("written in the batch, rolled back, written alone").isEqualTo(2);
    assertThat(writes.get(keys.get(2)).get()).isEqualTo(2);
    assertThat(writes.get(keys.get(3)).get()).isEqualTo(2);
    assertThat(writes.get(keys.get(4)).get()).as("not reached in the batch, failed alone").isEqualTo(1);
    assertThat(jdbc.queryForList("SELECT business_key FROM worker_batch_probe WHERE business_key LIKE ?",
        String.class, topic + ":%")).as("what the batch wrote before it rolled back is not there twice")
        .containsExactlyInAnyOrder(keys.get(1), keys.get(2), keys.get(3));
  }

  @Test
  void should_prepare_the_next_step_of_a_run_right_after_its_commit_before_work_queued_meanwhile()
      throws InterruptedException {
    // given a worker with one thread, on a process of two steps, held up completing run A's first step
    String twoSteps = key() + "-two-steps";
    engine.getRepositoryService().createDeployment()
        .addModelInstance(twoSteps + ".bpmn", Bpmn.createExecutableProcess(twoSteps).camundaHistoryTimeToLive(1)
            .startEvent().serviceTask("work").camundaExternalTask(topic).serviceTask("next").camundaExternalTask(topic)
            .endEvent().done())
        .deploy();
    Map<String, String> runs = new ConcurrentHashMap<>();
    List<String> order = new CopyOnWriteArrayList<>();
    Map<String, CompletableFuture<TaskResult<Object>>> firstSteps = new ConcurrentHashMap<>();
    worker = newWorker(task -> {
      String run = runs.get(task.getProcessInstanceId());
      if (task.getActivityId().equals("next")) {
        order.add(run + ": next step prepared");
        return new CompletableFuture<>();
      }
      return firstSteps.computeIfAbsent(run, r -> new CompletableFuture<>());
    }, 3, 1);
    for (String run : List.of("A", "B")) {
      runs.put(engine.getRuntimeService().startProcessInstanceByKey(twoSteps).getId(), run);
    }
    worker.start();
    await().atMost(Runs.PATIENCE).until(() -> firstSteps.size() == 2);
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    firstSteps.get("A").complete(new TaskResult.Complete<>(Map.of(), () -> {
      writing.countDown();
      return awaitQuietly(release);
    }));
    assertThat(writing.await(Runs.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    // when run B's first step is done while A's is being committed
    firstSteps.get("B").complete(new TaskResult.Complete<>(Map.of(), () -> order.add("B: first step written")));
    release.countDown();

    // then the thread that committed A's step prepared A's next one before it turned to B, which queued meanwhile
    await().atMost(Runs.PATIENCE).until(() -> order.size() == 3);
    assertThat(order).containsExactly("A: next step prepared", "B: first step written", "B: next step prepared");
  }

  @Test
  void should_take_the_first_step_of_an_instance_it_starts_without_waiting_for_a_fetch() {
    // given a worker whose fetcher found nothing and looks again only in an hour
    worker = newWorker(task -> CompletableFuture.completedFuture(new TaskResult.Complete<>(Map.of(), () -> null)), 3, 2,
        Duration.ofHours(1));
    worker.start();
    await().pollDelay(Duration.ofMillis(500)).atMost(Runs.PATIENCE).until(worker::serving);

    // when an instance is started through it
    String instance = worker.startTakingFirstSteps(this::startInstance);

    // then its task was locked in the starting transaction, and the worker completes it at once
    await().atMost(Runs.PATIENCE).until(() -> ended(instance));
  }

  @Test
  void should_leave_the_first_step_to_the_fetchers_when_it_does_not_serve() {
    // given a worker that is not started
    worker = newWorker(task -> new CompletableFuture<>());

    // when an instance is started through it
    String instance = worker.startTakingFirstSteps(this::startInstance);

    // then its task waits unlocked for whichever worker fetches it
    assertThat(task(instance).getWorkerId()).isNull();
    assertThat(worker.inFlight()).isZero();
  }

  private static Object awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(Runs.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private boolean ended(String instance) {
    return engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance).count() == 0;
  }

  private String workerId() {
    return "test-worker-" + topic;
  }

  private void startWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler) {
    worker = newWorker(handler);
    worker.start();
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler) {
    return newWorker(handler, 3);
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler, int retries) {
    return newWorker(handler, retries, 2);
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler, int retries,
      int threads) {
    return newWorker(handler, retries, threads, Duration.ofMillis(200));
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler, int retries,
      int threads, Duration idleWait) {
    return newWorker(handler, retries, threads, idleWait, Duration.ofMinutes(1));
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler, int retries,
      int threads, Duration idleWait, Duration retryBackoff) {
    return newWorker(handler, retries, threads, idleWait, retryBackoff, LOCK);
  }

  private ExternalTaskWorker<Object> newWorker(Function<LockedExternalTask, CompletionStage<TaskResult<Object>>> handler, int retries,
      int threads, Duration idleWait, Duration retryBackoff, Duration lock) {
    WorkerOptions settings = new WorkerOptions(workerId(), 8, 8, lock, idleWait, retries, retryBackoff, threads,
        Duration.ofSeconds(5), Duration.ofMinutes(10));
    return new ExternalTaskWorker<>(engine, transactionManager, List.of(new TopicHandler<Object>() {
      @Override
      public String topic() {
        return topic;
      }

      @Override
      public CompletionStage<TaskResult<Object>> handle(LockedExternalTask task, Object carried) {
        return handler.apply(task);
      }
    }), settings, new TaskArrivals(), new AgentLoopThreads("test-worker-", null));
  }

  private String startInstance() {
    return startInstance(null);
  }

  private String startInstance(String businessKey) {
    return engine.getRuntimeService().startProcessInstanceByKey(key(), businessKey).getId();
  }

  private ExternalTask task(String instance) {
    return engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(instance).singleResult();
  }

  private String key() {
    return topic.replace('.', '-');
  }
}
