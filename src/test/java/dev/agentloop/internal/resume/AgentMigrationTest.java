package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Moving waiting runs of an agent to another of its versions through {@code POST /api/agents/{key}/migrations}, on
 * the shipped diagram with the scripted model: what moves, what is refused and why, in words, what a dry run
 * changes (nothing), who may, and what bad requests get.
 */
@AgentLoopTest
class AgentMigrationTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @Test
  void should_move_a_run_waiting_in_its_plan_review_to_the_new_version() throws Exception {
    String key = "mig-smoke";
    TestAgent.deployVariant(engine, key, Map.of(AgentSettings.ALLOWED_TOOLS, "*"));
    String run = runs.start(key, "a plain question");
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    TestAgent.deployVariant(engine, key, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.MAX_MODEL_CALLS, "40"));
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);

    JsonNode report = body(ApiClient.as(port, "operator").post("/api/agents/" + key + "/migrations",
        JSON.createObjectNode().put("toVersion", 2).put("reason", "the fixed prompt")
            .set("runs", JSON.createArrayNode().add(run)).toString()), 200);

    assertThat(report.at("/runs/0/outcome").asText()).as(report.toString()).isEqualTo("migrated");
    RunView view = runs.view(run);
    assertThat(view.agentVersion()).isEqualTo(2);
    assertThat(view.budgets().modelCalls().limit()).isEqualTo(40);
  }
}
