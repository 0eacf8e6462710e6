package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What an operator looks up about runs over real HTTP: latency and tokens per step and per run,
 * budgets as used / limit, the prompt a model call received, and the search of runs, with every
 * kind of bad search parameter.
 */
@AgentLoopTest
class RunInsightsApiTest {

  @LocalServerPort int port;
  @Autowired DataSource dataSource;

  private ApiClient operator;

  @BeforeEach
  void operator() {
    operator = ApiClient.as(port, "operator");
  }

  @Test
  void should_record_latency_and_tokens_per_step_and_sum_them_per_run_saying_where_none_were_reported() {
    String run = answered(TestAgent.KEY, "costs: what did it cost?");

    JsonNode steps = body(operator.get("/api/runs/" + run + "/trace"), 200).get("steps");
    JsonNode plan = steps.get(0).get("cost");
    assertThat(plan.get("modelCall").asBoolean()).isTrue();
    assertThat(plan.get("latencyMillis").asLong()).isGreaterThanOrEqualTo(0);
    assertThat(plan.get("promptTokens").isNull()).as("the scripted planner reports no usage").isTrue();
    JsonNode thought = steps.get(1).get("cost");
    assertThat(thought.get("promptTokens").asLong()).isEqualTo(120);
    assertThat(thought.get("completionTokens").asLong()).isEqualTo(30);
    assertThat(thought.get("totalTokens").asLong()).isEqualTo(150);
    assertThat(steps.get(2).get("cost").isNull()).as("an action costs nothing of its own: its thought's call wrote it")
        .isTrue();
    JsonNode observation = steps.get(3).get("cost");
    assertThat(observation.get("modelCall").asBoolean()).isFalse();
    assertThat(observation.get("latencyMillis").asLong()).isGreaterThanOrEqualTo(0);
    assertThat(observation.get("promptTokens").isNull()).isTrue();
    assertThat(steps.get(4).get("cost").get("totalTokens").isNull()).as("turn 2 reports no usage").isTrue();
    assertThat(steps.get(7).get("cost").get("totalTokens").asLong()).isEqualTo(205);
    assertThat(steps.get(0).get("content").has("latencyMillis")).as("never in the step's content").isFalse();

    JsonNode view = body(operator.get("/api/runs/" + run), 200);
    assertThat(view.get("tokens").asLong()).isEqualTo(355);
    assertThat(view.at("/costs/promptTokens").asLong()).isEqualTo(320);
    assertThat(view.at("/costs/completionTokens").asLong()).isEqualTo(35);
    assertThat(view.at("/costs/modelCallsWithoutUsage").asInt()).isEqualTo(2);
    assertThat(view.at("/budgets/modelCalls/used").asInt()).isEqualTo(4);
    assertThat(view.at("/budgets/modelCalls/limit").asInt()).isPositive();
    assertThat(view.at("/budgets/toolCalls/used").asInt()).isEqualTo(2);
    assertThat(view.at("/budgets/toolCalls/limit").asInt()).isPositive();
    assertThat(view.get("activeStep").isNull()).as("a finished run does nothing").isTrue();
  }

  @Test
  void should_show_the_messages_a_model_call_received_and_store_them_as_changes_of_the_previous_prompt() {
    String run = answered(TestAgent.KEY, "costs: which prompt?");

    JsonNode second = body(operator.get("/api/runs/" + run + "/steps/5/prompt"), 200);
    assertThat(second.get("purpose").asText()).isEqualTo("THINK");
    List<String> roles = new ArrayList<>();
    second.get("messages").forEach(message -> roles.add(message.get("role").asText()));
    assertThat(roles).containsExactly("system", "user", "assistant", "tool");
    assertThat(second.at("/messages/1/text").asText()).isEqualTo("costs: which prompt?");
    assertThat(second.at("/messages/2/toolCalls/0/name").asText()).isEqualTo("calculator");
    assertThat(second.at("/messages/3/text").asText()).contains("391");
    assertThat(second.get("tools").toString()).contains("calculator");
    assertThat(second.toString()).doesNotContainIgnoringCase("authorization").doesNotContainIgnoringCase("api-key");
    JsonNode plan = body(operator.get("/api/runs/" + run + "/steps/1/prompt"), 200);
    assertThat(plan.get("purpose").asText()).isEqualTo("PLAN");
    JsonNode last = body(operator.get("/api/runs/" + run + "/steps/8/prompt"), 200);
    assertThat(last.get("messages")).hasSize(6);
    assertThat(last.at("/messages/0")).isEqualTo(second.at("/messages/0"));

    // the later prompts keep only what was added, plus ranges of the one before
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    String stored = jdbc.queryForObject("SELECT segments FROM agentloop_prompt WHERE run_id = ? AND step_no = 8",
        String.class, run);
    assertThat(stored).contains("\"ref\":[0,4]").doesNotContain(second.at("/messages/0/text").asText());
    assertThat(jdbc.queryForObject("SELECT tools FROM agentloop_prompt WHERE run_id = ? AND step_no = 8",
        String.class, run)).as("the same tools as before are not stored again").isNull();

    assertProblem(operator.get("/api/runs/" + run + "/steps/3/prompt"), 404, "has no stored prompt");
    assertProblem(operator.get("/api/runs/" + run + "/steps/99/prompt"), 404, "has no step 99");
    assertProblem(operator.get("/api/runs/nope/steps/1/prompt"), 404, "nope");
  }

  @Test
  void should_search_the_runs_of_an_agent_by_status_date_author_and_question() {
    String tag = UUID.randomUUID().toString().substring(0, 8);
    String first = answered(TestAgent.KEY, "costs: search " + tag + " one");
    String second = answered(TestAgent.KEY, "costs: search " + tag + " TWO");
    JsonNode restarted = body(operator.post("/api/runs/" + first + "/restart",
        "{\"fromStep\": 4, \"reason\": \"again\"}"), 201);
    String again = restarted.get("id").asText();
    await().atMost(Runs.PATIENCE).until(() -> body(operator.get("/api/runs/" + again), 200).get("status").asText(),
        "ANSWERED"::equals);
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    String agent = "/api/runs?agent=" + TestAgent.KEY;

    assertThat(ids(agent + "&q=" + tag)).containsExactly(again, second, first);
    assertThat(ids(agent + "&q=" + tag + "%20two")).as("any case").containsExactly(second);
    assertThat(ids(agent + "&q=" + tag + "&status=answered")).containsExactly(again, second, first);
    assertThat(ids(agent + "&q=" + tag + "&status=STOPPED")).isEmpty();
    assertThat(ids(agent + "&q=" + tag + "&editedBy=operator")).containsExactly(again);
    assertThat(ids(agent + "&q=" + tag + "&from=" + today + "&to=" + today)).hasSize(3);
    assertThat(ids(agent + "&q=" + tag + "&from=" + LocalDate.now(ZoneOffset.UTC).plusDays(1))).isEmpty();
    assertThat(ids(agent + "&q=%25")).as("% is a character, not a pattern").isEmpty();
    HttpResponse<String> page = operator.get(agent + "&q=" + tag + "&size=1&page=1");
    assertThat(body(page, 200)).hasSize(1);
    assertThat(body(page, 200).get(0).get("id").asText()).isEqualTo(second);
    assertThat(page.headers().firstValue("X-Total-Count")).hasValue("3");
  }

  @Test
  void should_refuse_bad_search_parameters_with_a_problem_that_names_them() {
    String agent = "/api/runs?agent=" + TestAgent.KEY;
    assertProblem(operator.get(agent + "&status=DONE"), 400, "parameter 'status' is 'DONE' but must be one of");
    assertProblem(operator.get(agent + "&from=24.11.2026"), 400, "parameter 'from' is '24.11.2026'");
    assertProblem(operator.get(agent + "&to=yesterday"), 400, "parameter 'to'");
    assertProblem(operator.get(agent + "&from=2026-11-24&to=2026-11-01"), 400, "after 'from'");
    assertProblem(operator.get(agent + "&size=0"), 400, "parameter 'size' is '0' but must be between 1 and 500");
    assertProblem(operator.get(agent + "&size=501"), 400, "parameter 'size'");
    assertProblem(operator.get(agent + "&page=-1"), 400, "parameter 'page' is '-1'");
    assertProblem(operator.get(agent + "&page=x"), 400, "page");
    assertProblem(operator.get(agent + "&q=" + "x".repeat(201)), 400, "at most 200 characters");
    assertProblem(operator.get(agent + "&finished=true&status=RUNNING"), 400, "a finished status");
    assertProblem(operator.get("/api/runs?agent=nope"), 400, "there is no agent 'nope'");
  }

  private List<String> ids(String path) {
    List<String> ids = new ArrayList<>();
    body(operator.get(path), 200).forEach(run -> ids.add(run.get("id").asText()));
    return ids;
  }

  private String answered(String agent, String question) {
    String run = body(operator.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + agent + "\"}"),
        201).get("id").asText();
    await().atMost(Runs.PATIENCE).until(() -> body(operator.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);
    return run;
  }
}
