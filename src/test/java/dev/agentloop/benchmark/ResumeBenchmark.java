package dev.agentloop.benchmark;

import static dev.agentloop.ApiClient.body;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * Issue 4's figure: a 100-turn run (noop tool, scripted model, no latency) waits with its answer;
 * an operator edits the observation of turn 50 through the REST API, again and again. Printed: the
 * edit call's latency (trace surgery + process instance modification, one transaction), and the
 * model calls and time until the run waits with its answer again, beside a full re-run from scratch.
 */
@Tag("benchmark")
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.datasource.url=jdbc:h2:file:./target/benchmark/resume-${random.uuid}",
        "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
        "logging.level.dev.agentloop=WARN"})
@ActiveProfiles("test")
@Import(TestTools.class)
class ResumeBenchmark {

  private static final String AGENT = "resume-benchmark-agent";
  private static final String QUESTION = "resume100: edit me";
  private static final int EDITED_TURN = 50;
  private static final int WARM_UP = 5;
  private static final int EDITS = 30;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @LocalServerPort int port;

  @Test
  void edit_at_step_50_of_100() throws InterruptedException {
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "noop",
        AgentSettings.MAX_STEPS, "100000", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        // the run repeats one call on purpose, and uses many calls: no escape may cut it short
        AgentSettings.MAX_MODEL_CALLS, "1000000", AgentSettings.MAX_TOOL_CALLS, "1000000",
        AgentSettings.LOOP_MAX_REPEATS, "1000000"));
    ApiClient operator = ApiClient.as(port, "operator");

    long scratchStart = System.nanoTime();
    String run = body(operator.post("/api/runs", "{\"question\": \"" + QUESTION + "\", \"agent\": \"" + AGENT + "\"}"),
        201).get("id").asText();
    RunView first = awaitAnswer(run, 1);
    double scratchMillis = (System.nanoTime() - scratchStart) / 1e6;

    List<Double> editMillis = new ArrayList<>();
    List<Double> continueMillis = new ArrayList<>();
    int modelCallsAfterEdit = 0;
    for (int round = 0; round < WARM_UP + EDITS; round++) {
      RunView before = runs.view(run);
      Step observation = observationOfTurn(run, EDITED_TURN);
      long start = System.nanoTime();
      JsonNode result = body(operator.post("/api/runs/" + run + "/steps/" + observation.stepNo() + "/edit",
          "{\"content\": {\"result\": \"edited " + round + "\"}, \"reason\": \"benchmark\", \"baseVersion\": "
              + before.version() + "}"), 200);
      long edited = System.nanoTime();
      RunView after = awaitAnswer(run, round + 2);
      if (round >= WARM_UP) {
        editMillis.add((edited - start) / 1e6);
        continueMillis.add((System.nanoTime() - edited) / 1e6);
        modelCallsAfterEdit = after.modelCalls() - before.modelCalls();
      }
      if (!result.get("continuesAt").asText().equals(ReactAgentProcess.THINK)) {
        throw new AssertionError("an edited observation continues at think: " + result);
      }
    }
    Collections.sort(editMillis);
    Collections.sort(continueMillis);
    BenchmarkReport.print("Edit and resume (issue 4): 100-turn run, observation of turn 50 edited, H2 file database",
        String.format("edit call (REST, trace surgery + process instance modification): p50 %.1f ms, p95 %.1f ms"
                + " over %d edits%n"
                + "after the edit: %d model calls, %.0f ms (p50) until the answer waits again%n"
                + "full re-run from scratch: %d model calls, %.0f ms%n",
            BenchmarkReport.percentile(editMillis, 50), BenchmarkReport.percentile(editMillis, 95), EDITS, modelCallsAfterEdit,
            BenchmarkReport.percentile(continueMillis, 50), first.modelCalls(), scratchMillis));
  }

  private Step observationOfTurn(String run, int turn) {
    return store.activePath(run).stream()
        .filter(step -> step.kind() == StepKind.OBSERVATION && step.turn() == turn)
        .findFirst().orElseThrow();
  }

  /** Polls every millisecond until the run waits in answer review with this many answers written. */
  private RunView awaitAnswer(String run, int answers) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < deadline) {
      RunView view = runs.view(run);
      if (view.waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER)
          && store.allSteps(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers) {
        // read again: the view's counters may have been read just before the answer's commit
        return runs.view(run);
      }
      Thread.sleep(1);
    }
    throw new AssertionError("run " + run + " did not answer again within 2 minutes");
  }
}
