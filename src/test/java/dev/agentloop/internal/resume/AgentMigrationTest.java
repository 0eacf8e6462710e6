package dev.agentloop.internal.resume;

import static dev.agentloop.internal.resume.MigrationCalls.migration;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.telemetry.RunTraces;
import dev.agentloop.internal.trace.MigrationLog;
import dev.agentloop.internal.trace.MigrationOrder;
import dev.agentloop.internal.trace.MoveOutcome;
import dev.agentloop.internal.trace.RunMove;
import dev.agentloop.internal.trace.StoredMigration;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.BaseElement;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Moving waiting runs of an agent to another of its versions through {@code POST /api/agents/{key}/migrations}, on
 * the shipped diagram with the scripted model: what a dry run says and changes (nothing), what is refused and why,
 * in words (the waiting activity gone, a tool a pending call needs taken away, a budget used beyond the new limit,
 * a conversation the new version would not take), and what carries over. Who may and bad requests:
 * {@link MigrationRequestsTest}.
 */
@AgentLoopTest
class AgentMigrationTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired MigrationLog migrationLog;
  @Autowired PendingMigrations pendingMigrations;

  @Test
  void should_say_what_would_happen_in_a_dry_run_and_change_nothing() {
    String key = "mig-dry";
    deploy(key, Map.of());
    String answering = runs.start(key, "a plain question");
    String approving = runs.start(key, "approve: send the mail");
    api("operator").awaitTask(answering, ReactAgentProcess.REVIEW_ANSWER);
    api("operator").awaitTask(approving, ReactAgentProcess.APPROVE_ACTION);
    deploy(key, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator"));
    JsonNode tracesBefore = trace(answering);
    int versionBefore = runs.view(answering).version();

    ObjectNode request = migration(2, answering, approving, "no-such-run").put("dryRun", true);
    request.remove("reason");
    JsonNode report = body(api("operator").post("/api/agents/" + key + "/migrations", request.toString()), 200);

    assertThat(report.get("dryRun").asBoolean()).isTrue();
    assertThat(report.get("migrationId").isNull()).isTrue();
    assertThat(report.get("total").asInt()).isEqualTo(3);
    assertThat(outcomes(report)).containsExactly(
        answering + " migrated: would move from version 1 to version 2: it waits in 'Review the answer' (reviewAnswer)",
        approving + " refused: the pending call of send_email (call_1_1) needs a tool version 2 does not allow"
            + " (allowedTools)",
        "no-such-run refused: there is no run no-such-run");
    // nothing changed: versions, trace and decisions, the forms
    assertThat(runs.view(answering).agentVersion()).isEqualTo(1);
    assertThat(runs.view(answering).version()).isEqualTo(versionBefore);
    assertThat(trace(answering)).isEqualTo(tracesBefore);
    assertThat(migrations(answering)).isEmpty();
    assertThat(form(answering, "agentVersion")).isEqualTo(key + ", version 1");
    assertThat(form(answering, "lastChange")).isEmpty();
  }

  @Test
  void should_refuse_in_words_a_run_whose_waiting_activity_the_new_version_lacks() {
    String key = "mig-gone";
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "false"));
    String run = runs.start(key, "a plain question");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_PLAN);
    // version 2 has no plan review: it accepts its plans itself
    BpmnModelInstance withoutReview = TestAgent.variant(key, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "false"));
    MigrationCalls.remove(withoutReview, ReactAgentProcess.REVIEW_PLAN, "planDecision", ReactAgentProcess.REJECTED);
    engine.getRepositoryService().createDeployment().addModelInstance(key + ".bpmn", withoutReview).deploy();

    JsonNode report = migrate(key, migration(2, run));

    assertThat(outcomes(report)).containsExactly(run + " refused: version 2 has no 'Review the plan' (reviewPlan),"
        + " where the run waits");
    assertThat(report.get("done").asBoolean()).isTrue();
    assertThat(migrations(run)).isEmpty();
    // the run goes on as it was, on version 1
    complete(run, ReactAgentProcess.REVIEW_PLAN, "{\"decision\": \"accept\"}");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);
  }

  @Test
  void should_move_a_run_to_a_version_that_gave_its_review_another_id_by_what_the_review_is() {
    String key = "mig-renamed";
    deploy(key, Map.of());
    String run = runs.start(key, "a plain question");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    // version 2: the analyst's copy calls the answer review otherwise; it is the same review (agentloop.review)
    BpmnModelInstance renamed = TestAgent.variant(key, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "false",
        AgentSettings.CONVERSATION, "false"));
    renamed.<BaseElement>getModelElementById(ReactAgentProcess.REVIEW_ANSWER).setId("checkTheAnswer");
    engine.getRepositoryService().createDeployment().addModelInstance(key + ".bpmn", renamed).deploy();

    assertThat(outcomes(migrate(key, migration(2, run)))).containsExactly(run + " migrated: moved from version 1 to"
        + " version 2: it waits in 'Review the answer' (reviewAnswer)");

    assertThat(runs.view(run).waitingFor()).containsExactly("checkTheAnswer");
    complete(run, "checkTheAnswer", "{\"decision\": \"accept\"}");
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).agentVersion()).isEqualTo(2);
  }

  @Test
  void should_refuse_a_run_that_used_more_of_a_budget_than_the_new_version_allows_and_move_it_at_the_limit() {
    String key = "mig-budget";
    deploy(key, Map.of());
    String run = runs.start(key, "multi-step: a budget too small");
    api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(runs.view(run).modelCalls()).isEqualTo(4);
    deploy(key, Map.of(AgentSettings.MAX_MODEL_CALLS, "3"));
    deploy(key, Map.of(AgentSettings.MAX_MODEL_CALLS, "4"));

    JsonNode refused = migrate(key, migration(2, run));
    JsonNode atTheLimit = migrate(key, migration(3, run));

    assertThat(outcomes(refused)).containsExactly(run + " refused: the run has used 4 model calls and version 2"
        + " allows 3 (maxModelCalls): it would be stuck at its next model call; raise it in version 2, or leave the"
        + " run on version 1");
    assertThat(outcomes(atTheLimit)).containsExactly(run + " migrated: moved from version 1 to version 3: it waits in"
        + " 'Review the answer' (reviewAnswer)");
    // at the limit, the answer it waits with may still be accepted
    complete(run, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"accept\"}");
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).agentVersion()).isEqualTo(3);
  }

  @Test
  void should_refuse_a_waiting_conversation_when_the_new_version_takes_no_follow_up() {
    String key = "mig-chat";
    Map<String, String> chat = Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true",
        AgentSettings.CONVERSATION_IDLE, "PT1H");
    deploy(key, chat);
    String run = runs.start(key, "a plain question");
    Runs.awaitView(runs, run, view -> view.waitingFor().contains(RunView.FOLLOW_UP));
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "false"));

    JsonNode report = migrate(key, migration(2, run));

    assertThat(outcomes(report)).containsExactly(run + " refused: the run waits for a follow-up question, and"
        + " version 2 takes none (conversation = false)");
  }

  @Test
  void should_carry_the_trace_budgets_trace_context_and_timers_over() {
    String key = "mig-carry";
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    String run = runs.start(key, "ask-human: who are you?");
    api("reviewer").awaitTask(run, ReactAgentProcess.ASK_HUMAN);
    RunView before = runs.view(run);
    JsonNode trace = trace(run).get("steps");
    Object traceparent = engine.getRuntimeService().getVariable(run, RunTraces.VARIABLE);
    List<String> timers = timers(run);
    assertThat(timers).hasSize(2); // the ask-human timer and the agent loop's run time
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.ASK_HUMAN_TIMEOUT, "PT5H"));

    assertThat(outcomes(migrate(key, migration(2, run)))).first().asString().contains(" migrated: ");

    RunView after = runs.view(run);
    assertThat(trace(run).get("steps")).isEqualTo(trace);
    assertThat(List.of(after.steps(), after.modelCalls(), after.toolCalls(), after.turns().size()))
        .isEqualTo(List.of(before.steps(), before.modelCalls(), before.toolCalls(), before.turns().size()));
    assertThat(traceparent).asString().startsWith("00-");
    assertThat(engine.getRuntimeService().getVariable(run, RunTraces.VARIABLE)).isEqualTo(traceparent);
    assertThat(timers(run)).isEqualTo(timers);
    complete(run, ReactAgentProcess.ASK_HUMAN, "{\"answer1\": \"Ann\", \"answer2\": \"Oslo\"}");
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("Thanks, noted.");
  }

  @Test
  void should_move_a_pending_run_that_waits_and_give_up_on_one_that_ended_when_a_node_looks_for_them() {
    String key = "mig-sweep";
    deploy(key, Map.of());
    String waiting = runs.start(key, "a plain question");
    String ended = runs.start(key, "another plain question");
    api("operator").awaitTask(waiting, ReactAgentProcess.REVIEW_ANSWER);
    complete(ended, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"accept\"}");
    Runs.awaitStatus(runs, ended, RunStatus.ANSWERED);
    deploy(key, Map.of(AgentSettings.MAX_STEPS, "9"));
    String target = engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key)
        .processDefinitionVersion(2).singleResult().getId();
    // both were busy when a migration asked for them, and were to move when they next wait
    String migrationId = UUID.randomUUID().toString();
    migrationLog.open(new StoredMigration(migrationId, new MigrationOrder(key, target, 2, true, "operator",
        "move them when they wait"), null, Instant.now(), 2, null));
    for (String run : List.of(waiting, ended)) {
      migrationLog.result(migrationId, new RunMove(run, MoveOutcome.PENDING, 1, "busy: moves when it next waits",
          null));
    }

    pendingMigrations.sweep();

    JsonNode report = body(api("operator").get("/api/agents/" + key + "/migrations/" + migrationId), 200);
    assertThat(outcomes(report)).containsExactlyInAnyOrder(
        waiting + " migrated: moved from version 1 to version 2: it waits in 'Review the answer' (reviewAnswer)",
        ended + " refused: the run has ended (ANSWERED): only runs that wait move");
    assertThat(report.get("done").asBoolean()).isTrue();
    assertThat(runs.view(waiting).agentVersion()).isEqualTo(2);
    assertThat(migrationLog.pending(100)).noneMatch(move -> move.migrationId().equals(migrationId));
  }

  // --- helpers ---

  private List<JsonNode> migrations(String run) {
    return MigrationCalls.migrations(api("operator"), run);
  }

  private void deploy(String key, Map<String, String> settings) {
    MigrationCalls.deploy(engine, key, settings);
  }

  private JsonNode migrate(String key, ObjectNode request) {
    return MigrationCalls.migrate(api("operator"), key, request);
  }

  private static List<String> outcomes(JsonNode report) {
    List<String> outcomes = new ArrayList<>();
    report.get("runs").forEach(run -> outcomes.add(run.get("runId").asText() + " " + run.get("outcome").asText()
        + ": " + run.get("detail").asText()));
    return outcomes;
  }

  private JsonNode trace(String run) {
    return body(api("operator").get("/api/runs/" + run + "/trace?branches=all"), 200);
  }

  private String form(String run, String field) {
    return body(api("operator").get("/api/runs/" + run + "/tasks"), 200).get(0).at("/form/" + field).asText();
  }

  private void complete(String run, String taskKey, String fields) {
    String task = api("reviewer").awaitTask(run, taskKey).get("id").asText();
    HttpResponse<String> response = api("reviewer").post("/api/runs/" + run + "/tasks/" + task + "/complete", fields);
    body(response, 200);
  }

  private List<String> timers(String run) {
    return engine.getManagementService().createJobQuery().processInstanceId(run).timers().orderByJobDuedate().asc()
        .list().stream().map(Job::getDuedate).map(due -> due.toInstant().toString()).toList();
  }

  private ApiClient api(String user) {
    return ApiClient.as(port, user);
  }
}
