package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static dev.agentloop.internal.resume.MigrationCalls.migration;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.security.AgentOwnership;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Who may move an agent's runs to another of its versions through {@code POST /api/agents/{key}/migrations} (and
 * read its versions and a migration's progress), and what each kind of bad request gets: a problem in words, and
 * no run moved.
 */
@AgentLoopTest
class MigrationRequestsTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired AgentOwnership owners;

  @Test
  void should_let_operators_and_engine_admins_migrate_and_refuse_everyone_else() {
    String key = "mig-rights";
    deploy(key, Map.of());
    String run = runs.start(key, "a plain question");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    deploy(key, Map.of(AgentSettings.MAX_STEPS, "9"));
    String path = "/api/agents/" + key + "/migrations";
    String request = migration(2, run).toString();

    for (String user : List.of("reviewer", "analyst")) {
      assertProblem(api(user).post(path, request), 403, "may not move the runs of agent " + key);
      assertProblem(api(user).get("/api/agents/" + key + "/versions"), 403, "agent-operators");
    }
    assertThat(ApiClient.anonymous(port).post(path, request).statusCode()).isEqualTo(401);
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);

    JsonNode versions = body(ApiClient.as(port, "demo", "demo").get("/api/agents/" + key + "/versions"), 200);
    assertThat(versions).hasSize(2);
    assertThat(versions.get(0).get("openRuns").asLong()).isEqualTo(1);
    assertThat(versions.get(1).get("latest").asBoolean()).isTrue();
    JsonNode report = body(ApiClient.as(port, "demo", "demo").post(path, request), 200);
    assertThat(report.at("/runs/0/outcome").asText()).isEqualTo("migrated");
    assertThat(report.get("requestedBy").asText()).isEqualTo("demo");
    JsonNode again = body(api("operator").get(path + "/" + report.get("migrationId").asText()), 200);
    assertThat(again.get("runs")).isEqualTo(report.get("runs"));
  }

  @Test
  void should_let_the_analysts_of_the_group_that_owns_the_agent_move_its_runs_and_no_other_analyst() {
    // given a run waiting in its answer review on version 1 of an agent the application deployed, and a version 2
    String key = "mig-owned";
    deploy(key, Map.of());
    String run = runs.start(key, "a plain question");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    deploy(key, Map.of(AgentSettings.MAX_STEPS, "9"));
    String path = "/api/agents/" + key + "/migrations";

    // when the key is the application's, an analyst may not move its runs
    assertProblem(api("analyst").post(path, migration(2, run).toString()), 403, "may not move the runs of agent " + key);

    // when an administrator hands the key to the analysts' group, they may
    owners.handTo(key, AgentLoopGroups.ANALYSTS);
    JsonNode report = body(api("analyst").post(path, migration(2, run).toString()), 200);
    assertThat(report.at("/runs/0/outcome").asText()).isEqualTo("migrated");
    assertThat(runs.view(run).agentVersion()).isEqualTo(2);
  }

  @Test
  void should_refuse_bad_requests_in_words_and_move_nothing() {
    String key = "mig-bad";
    deploy(key, Map.of());
    String run = runs.start(key, "a plain question");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    deploy(key, Map.of(AgentSettings.MAX_STEPS, "9"));
    String path = "/api/agents/" + key + "/migrations";
    Map<String, String> bad = new HashMap<>();
    bad.put("{\"runs\": [\"" + run + "\"], \"reason\": \"r\"}", "toVersion must be the version of the agent");
    bad.put("{\"toVersion\": 9, \"runs\": [\"" + run + "\"], \"reason\": \"r\"}", "agent mig-bad has no version 9;"
        + " its versions are 1, 2");
    bad.put("{\"toVersion\": 2, \"reason\": \"r\"}", "either runs (their ids) or fromVersion");
    bad.put("{\"toVersion\": 2, \"fromVersion\": 1, \"runs\": [\"" + run + "\"], \"reason\": \"r\"}", "not both");
    bad.put("{\"toVersion\": 2, \"runs\": [\"" + run + "\"]}", "say why the runs move (reason)");
    bad.put("{\"toVersion\": 2, \"runs\": [\"" + run + "\"], \"reason\": \"  \"}", "say why the runs move");
    bad.put("{\"toVersion\": 2, \"runs\": [], \"reason\": \"r\"}", "runs must name 1 to 10000 runs");
    bad.put("{\"toVersion\": 2, \"runs\": [\"a\\u0000b\"], \"reason\": \"r\"}", "no NUL");
    bad.put("{\"toVersion\": 2, \"runs\": [\"" + run + "\"], \"reason\": \"r\", \"whenBusy\": \"later\"}",
        "whenBusy must be 'refuse'");
    bad.put("{\"toVersion\": 2, \"fromVersion\": 0, \"reason\": \"r\"}", "fromVersion must be a version");
    bad.put("{\"toVersion\": 2, \"runs\": [\"" + run + "\"], \"reason\": \"r\", \"force\": true}", "force");
    bad.put("[1, 2]", "");
    bad.forEach((request, detail) -> assertProblem(api("operator").post(path, request), 400, detail));
    assertProblem(api("operator").post("/api/agents/no-such-agent/migrations", migration(2, run).toString()), 400,
        "there is no agent 'no-such-agent'");
    assertProblem(api("operator").get(path + "/no-such-migration"), 404, "agent mig-bad has no migration");
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);
    assertThat(MigrationCalls.migrations(api("operator"), run)).isEmpty();
  }

  private void deploy(String key, Map<String, String> settings) {
    MigrationCalls.deploy(engine, key, settings);
  }

  private ApiClient api(String user) {
    return ApiClient.as(port, user);
  }
}
