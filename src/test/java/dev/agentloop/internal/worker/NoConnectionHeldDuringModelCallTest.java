package dev.agentloop.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.test.context.ActiveProfiles;

/**
 * With a connection pool of ONE, the engine stays fully usable while a model call is pending: the
 * worker holds no connection and no transaction while it waits.
 *
 * <p>Its engine has a name of its own: Camunda's REST API and webapps find engines by name in a
 * JVM-wide registry, where the engine of this second Spring context would otherwise replace the
 * shared test context's engine "default", and the shared context's /engine-rest would serve this
 * context's database.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, NoConnectionHeldDuringModelCallTest.BlockingModel.class},
    properties = {"spring.datasource.hikari.maximum-pool-size=1", "spring.datasource.hikari.connection-timeout=2000",
        "camunda.bpm.process-engine-name=noConnectionHeld",
        // Camunda's history cleanup job schedules its next run in a second transaction while the first still holds
        // its connection: with a pool of one it would wait for itself, should a window or a person start it
        "camunda.bpm.generic-properties.properties.history-cleanup-enabled=false"})
@ActiveProfiles("test")
class NoConnectionHeldDuringModelCallTest {

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired DataSource dataSource;
  @Autowired BlockingModel model;

  @Test
  void should_keep_a_pool_of_one_usable_while_the_model_is_thinking() throws Exception {
    // given a run whose think call is pending
    String runId = runs.start(TestAgent.KEY, "block: think slowly");
    assertThat(model.thinking.await(Runs.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    // then the single connection is free and the engine answers other work, including a new run
    HikariDataSource pool = (HikariDataSource) dataSource;
    await().atMost(Runs.PATIENCE).until(() -> pool.getHikariPoolMXBean().getActiveConnections() == 0);
    for (int i = 0; i < 20; i++) {
      assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(runId).count()).isEqualTo(1);
      assertThat(runs.view(runId).status()).isEqualTo(RunStatus.RUNNING);
    }
    String second = runs.start(TestAgent.KEY, "block: a second run");
    assertThat(engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(second).count()).isEqualTo(1);

    // when the model answers, both runs finish
    model.release.countDown();
    assertThat(Runs.awaitStatus(runs, runId, RunStatus.ANSWERED).finalAnswer()).isEqualTo("done thinking");
    Runs.awaitStatus(runs, second, RunStatus.ANSWERED);
  }

  /** The model bean: plans at once; every think call waits until the test releases it, holding nothing but a future. */
  @TestConfiguration(proxyBeanMethods = false)
  static class BlockingModel implements ChatModel {

    final CountDownLatch thinking = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public CompletionStage<ModelReply> chat(ModelRequest request) {
      if (request.purpose() == ModelRequest.Purpose.PLAN) {
        return CompletableFuture.completedFuture(new ModelReply("[\"think\"]", List.of(), 0));
      }
      thinking.countDown();
      return CompletableFuture.supplyAsync(() -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return new ModelReply("done thinking", List.of(), 0);
      });
    }

    @Override
    public String endpoint() {
      return "blocking-test-model";
    }
  }
}
