package dev.agentloop.benchmark;

import static dev.agentloop.ApiClient.body;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * Issue 3's figure: one ask-human round trip through the REST API, excluding the person's time.
 * From posting the answer to the next question's task being open: the answer written as the
 * observation, the model asked again (scripted, no latency) and the run suspended in askHuman
 * once more, holding no thread. 100 rounds in one run after a warm-up; p50 and p95 printed.
 */
@Tag("benchmark")
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.datasource.url=jdbc:h2:file:./target/benchmark/ask-${random.uuid}",
        "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
        "logging.level.dev.agentloop=WARN"})
@ActiveProfiles("test")
class AskHumanBenchmark {

  private static final String AGENT = "ask-benchmark-agent";
  private static final int WARM_UP = 30;
  private static final int ROUNDS = 100;

  @Autowired ProcessEngine engine;
  @LocalServerPort int port;

  @Test
  void round_trip() throws InterruptedException {
    // asking the same question over and over is the point here, not a loop to escape from
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "ask_human",
        AgentSettings.MAX_STEPS, "100000", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.MAX_MODEL_CALLS, "1000000", AgentSettings.LOOP_MAX_REPEATS, "1000000"));
    ApiClient api = ApiClient.as(port, "reviewer");
    String run = body(api.post("/api/runs", "{\"question\": \"ask: again and again\", \"agent\": \"" + AGENT + "\"}"),
        201).get("id").asText();

    List<Double> millis = new ArrayList<>();
    Task question = nextQuestion(run, null);
    for (int round = 0; round < WARM_UP + ROUNDS; round++) {
      long start = System.nanoTime();
      body(api.post("/api/runs/" + run + "/tasks/" + question.getId() + "/complete", "{\"answer1\": \"yes\"}"), 200);
      question = nextQuestion(run, question.getId());
      if (round >= WARM_UP) {
        millis.add((System.nanoTime() - start) / 1e6);
      }
    }
    Collections.sort(millis);
    double p50 = BenchmarkReport.percentile(millis, 50);
    BenchmarkReport.print("Ask-human round trip: H2 file database, REST API with HTTP Basic",
        String.format("%d rounds: p50 %.1f ms (target <= 20: %s), p95 %.1f ms, max %.1f ms%n"
                + "(answer posted -> observation written, model asked, next askHuman task open)",
            ROUNDS, p50, BenchmarkReport.verdict(p50 <= 20), BenchmarkReport.percentile(millis, 95),
            millis.get(millis.size() - 1)));
  }

  /** Polls every millisecond (the figures' resolution) for the run's next askHuman task. */
  private Task nextQuestion(String run, String previous) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      Task task = engine.getTaskService().createTaskQuery().processInstanceId(run)
          .taskDefinitionKey(ReactAgentProcess.ASK_HUMAN).singleResult();
      if (task != null && !task.getId().equals(previous)) {
        return task;
      }
      Thread.sleep(1);
    }
    throw new AssertionError("no new question in run " + run + " within 30 s");
  }
}
