package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Model calls under load, against a local fake of the OpenAI wire that answers slowly: more runs than
 * the model has threads wait for a thread without their time-out running (no breaker opens on a model
 * that answers every request, nothing is sent that no run counts), and a reply that comes after its run
 * left the loop is kept in the trace with its cost, off the active path.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.api-key=sk-fake-key", "agentloop.llm.model=slow-model",
        // one thread for the model, a time-out of 8 s (9 s for the guard): a call that waited for the thread
        // behind four others of 1.2 s each would time out if the wait counted
        "agentloop.llm.max-concurrent-calls=1", "agentloop.llm.timeout=PT8S",
        // an engine of its own name: a second "default" would take /engine-rest and the webapps from the shared context
        "camunda.bpm.process-engine-name=" + SlowModelScenarioTest.ENGINE})
@ActiveProfiles("test")
class SlowModelScenarioTest {

  static final String ENGINE = "slowModel";

  private static final String RUN_TIME_AGENT = "run-time-agent";
  private static final Duration ANSWER_TIME = Duration.ofMillis(1200);
  private static final FakeOpenAiServer SERVER = start();
  /** Holds the reply to the late run's turn until the test has seen the run leave its loop. */
  private static final CountDownLatch LEFT_THE_LOOP = new CountDownLatch(1);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Breakers breakers;
  @Autowired MeterRegistry meters;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  /** A failing test must not leave the fake's thread waiting. */
  @AfterAll
  static void stopServer() {
    LEFT_THE_LOOP.countDown();
    SERVER.close();
  }

  @Test
  void should_let_more_runs_than_model_threads_wait_without_opening_the_breaker_or_sending_uncounted_calls() {
    // when five runs of two model calls each start at once on a model with one thread and 1.2 s per answer
    List<String> started = IntStream.range(0, 5).mapToObj(i -> runs.start(TestAgent.KEY, "queue: run " + i)).toList();

    // then every run answers, each of its calls at the first attempt
    List<RunView> answered = started.stream().map(run -> Runs.awaitStatus(runs, run, RunStatus.ANSWERED)).toList();
    assertThat(answered).allSatisfy(view -> assertThat(view.modelCalls()).isEqualTo(2));
    assertThat(breakers.find("model:openai:" + SERVER.baseUrl()).orElseThrow().state()).isEqualTo("CLOSED");
    assertThat(meters.find("agentloop.model.failures").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
    // and the provider got exactly the calls the runs counted: none timed out in the queue and was sent later
    assertThat(requestsAbout("queue: ")).isEqualTo(answered.stream().mapToInt(RunView::modelCalls).sum());
  }

  @Test
  void should_keep_a_reply_that_came_after_the_run_left_its_loop_with_its_cost() throws InterruptedException {
    // given an agent with a run-time budget of 2 s, whose model turn is answered only after the run escaped
    TestAgent.deployVariant(engine, RUN_TIME_AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.ASK_HUMAN_TIMEOUT, "PT1S", AgentSettings.MAX_RUN_TIME, "PT2S"));
    String run = runs.start(RUN_TIME_AGENT, "late: what is the answer?");

    // when the budget fires while the turn's call is under way, and the reply comes after that
    Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    long sentBefore = requestsAbout("late: ");
    LEFT_THE_LOOP.countDown();

    // then the call it paid for is counted in the run and kept in its trace, off the active path, with the reason
    RunView view = Runs.awaitView(runs, run, v -> v.modelCalls() == 2);
    assertThat(sentBefore).isEqualTo(2);
    assertThat(requestsAbout("late: ")).isEqualTo(view.modelCalls());
    Step late = await().atMost(Runs.PATIENCE).until(() -> runs.trace(run, true).stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER).findFirst(), java.util.Optional::isPresent).orElseThrow();
    assertThat(late.status()).isEqualTo(StepStatus.SUPERSEDED);
    assertThat(late.reason()).startsWith("the model replied after the run had left its loop");
    assertThat(late.text("text")).isEqualTo("the late answer");
    assertThat(Runs.kinds(runs.trace(run, false))).doesNotContain(StepKind.FINAL_ANSWER);
    assertThat(view.status()).isEqualTo(RunStatus.WAITING);
  }

  // ---- the fake endpoint ----------------------------------------------------------------------------

  private static long requestsAbout(String prefix) {
    return SERVER.requests().stream().map(Recorded::body)
        .filter(body -> question(body).startsWith(prefix)).count();
  }

  private static String question(JsonNode body) {
    for (JsonNode message : body.path("messages")) {
      String content = message.path("content").asText();
      if (content.startsWith("queue: ") || content.startsWith("late: ")) {
        return content;
      }
    }
    return "";
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(SlowModelScenarioTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Plans and answers in 1.2 s each; the late run's turn waits until the test lets it go. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    boolean plan = messages.path(0).path("content").asText().startsWith("Write a short plan");
    if (plan) {
      return new Response(200, FakeOpenAiServer.textCompletion("[\"Answer the question\"]", 10, 5), ANSWER_TIME);
    }
    if (question(request.body()).startsWith("late: ")) {
      try {
        LEFT_THE_LOOP.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new Response(200, FakeOpenAiServer.textCompletion("the late answer", 30, 7));
    }
    return new Response(200, FakeOpenAiServer.textCompletion("answered", 10, 5), ANSWER_TIME);
  }
}
