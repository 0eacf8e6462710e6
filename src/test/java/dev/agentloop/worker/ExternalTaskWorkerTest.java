package dev.agentloop.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.config.AgentLoopThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;

/** A worker of its own on a topic of its own, next to the app's worker, on the real engine. */
@AgentLoopTest
class ExternalTaskWorkerTest {

  @Autowired ProcessEngine engine;
  @Autowired PlatformTransactionManager transactionManager;
  private ExternalTaskWorker worker;
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
    CompletableFuture<TaskResult> later = new CompletableFuture<>();
    startWorker(task -> later);
    String instance = startInstance();
    await().atMost(Runs.PATIENCE).until(() -> task(instance).getWorkerId() != null);

    // when
    CompletableFuture.runAsync(() -> later.complete(new TaskResult.Complete(Map.of(), () -> null)),
        CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
    worker.stop();

    // then
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance).count()).isZero();
  }

  @Test
  void should_survive_handlers_that_throw_and_keep_serving() {
    // given a handler that fails in every way it can, then behaves
    startWorker(task -> switch (task.getBusinessKey()) {
      case "throws" -> throw new IllegalStateException("handler bug");
      case "null" -> null;
      case "fails" -> CompletableFuture.failedFuture(new IllegalStateException("async failure"));
      default -> CompletableFuture.completedFuture(new TaskResult.Complete(Map.of(), () -> null));
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
    assertThat(task(broken.get(0)).getErrorMessage()).isEqualTo("handler bug");
    assertThat(task(broken.get(2)).getErrorMessage()).isEqualTo("async failure");
    assertThat(task(broken.get(1)).getErrorMessage()).isNotBlank();
  }

  private void startWorker(Function<LockedExternalTask, CompletionStage<TaskResult>> handler) {
    WorkerSettings settings = new WorkerSettings("test-worker-" + topic, 8, 8, Duration.ofMinutes(5),
        Duration.ofMillis(200), 3, Duration.ofMinutes(1), 2, Duration.ofSeconds(5));
    worker = new ExternalTaskWorker(engine, transactionManager, List.of(new TopicHandler() {
      @Override
      public String topic() {
        return topic;
      }

      @Override
      public CompletionStage<TaskResult> handle(LockedExternalTask task, Object carried) {
        return handler.apply(task);
      }
    }), settings, new TaskArrivals(), new AgentLoopThreads("test-worker-", null));
    worker.start();
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
