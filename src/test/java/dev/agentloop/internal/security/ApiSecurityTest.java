package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.trace.step.StepKind;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Who may use the REST APIs and do what: every request to {@code /api} and {@code /engine-rest}
 * needs a user; Camunda's authorization, set up for the AgentLoop groups, decides the rest.
 */
@AgentLoopTest
class ApiSecurityTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @BeforeEach
  void an_outsider_without_groups() {
    if (engine.getIdentityService().createUserQuery().userId("outsider").count() == 0) {
      User outsider = engine.getIdentityService().newUser("outsider");
      outsider.setPassword("outsider");
      engine.getIdentityService().saveUser(outsider);
    }
  }

  @Test
  void should_ask_anonymous_callers_of_both_apis_to_authenticate() {
    HttpResponse<String> api = ApiClient.anonymous(port).get("/api/runs/any");
    assertProblem(api, 401, "send HTTP Basic credentials");
    assertThat(api.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"AgentLoop\"");

    assertThat(ApiClient.anonymous(port).get("/engine-rest/task").statusCode()).isEqualTo(401);
    assertThat(ApiClient.anonymous(port).post("/api/runs", "{\"question\": \"hi\"}").statusCode()).isEqualTo(401);
  }

  @Test
  void should_refuse_a_wrong_password_without_telling_which_part_was_wrong() {
    // a user of its own: after a wrong password Camunda delays the user's next login
    User forgetful = engine.getIdentityService().newUser("forgetful" + System.nanoTime());
    forgetful.setPassword("secret");
    engine.getIdentityService().saveUser(forgetful);
    assertProblem(ApiClient.as(port, forgetful.getId(), "guess").get("/api/runs/any"), 401, "unknown user or wrong password");
    assertProblem(ApiClient.as(port, "nobody", "guess").get("/api/runs/any"), 401, "unknown user or wrong password");
    assertThat(ApiClient.as(port, "nobody", "guess").get("/engine-rest/task").statusCode()).isEqualTo(401);
  }

  @Test
  void should_let_a_reviewer_start_read_and_review_a_run_and_record_who_reviewed() {
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = body(reviewer.post("/api/runs",
        "{\"question\": \"review-plan: through the API\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"), 201)
        .get("id").asText();
    JsonNode task = awaitTask(reviewer, run);

    body(reviewer.post("/api/runs/" + run + "/tasks/" + task.get("id").asText() + "/complete",
        "{\"decision\": \"accept\", \"plan\": \"Look it up\"}"), 200);

    JsonNode plan = latest(reviewer, run, StepKind.PLAN);
    assertThat(plan.get("author").asText()).isEqualTo("reviewer");
    assertThat(body(reviewer.get("/engine-rest/task?processInstanceId=" + run), 200)).isNotNull();
  }

  @Test
  void should_refuse_an_outsider_every_run_and_task_and_keep_the_task() {
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    ApiClient outsider = ApiClient.as(port, "outsider");
    String run = body(reviewer.post("/api/runs",
        "{\"question\": \"review-plan: not yours\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"), 201).get("id").asText();
    String task = awaitTask(reviewer, run).get("id").asText();

    assertProblem(outsider.post("/api/runs", "{\"question\": \"hi\", \"agent\": \"test-agent\"}"), 403, "outsider");
    // a run the outsider may not read is as unknown to them as a run that does not exist
    assertProblem(outsider.get("/api/runs/" + run), 404, "no run with id " + run);
    assertProblem(outsider.get("/api/runs/" + run + "/trace"), 404, "no run with id " + run);
    assertProblem(outsider.post("/api/runs/" + run + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}"),
        404, "no run with id " + run);

    assertThat(engine.getTaskService().createTaskQuery().taskId(task).count()).isEqualTo(1);
  }

  @Test
  void should_accept_a_tasklist_session_and_require_its_csrf_token_for_changes() throws Exception {
    WebappSession session = WebappSession.login(port, "reviewer");
    String run = body(ApiClient.as(port, "reviewer").post("/api/runs",
        "{\"question\": \"review-plan: from a session\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"), 201)
        .get("id").asText();
    String task = awaitTask(ApiClient.as(port, "reviewer"), run).get("id").asText();

    body(session.get("/api/runs/" + run), 200);
    String complete = "/api/runs/" + run + "/tasks/" + task + "/complete";
    assertProblem(session.post(complete, "{\"decision\": \"accept\"}", false), 403, "X-XSRF-TOKEN");
    assertThat(engine.getTaskService().createTaskQuery().taskId(task).count()).isEqualTo(1);

    body(session.post(complete, "{\"decision\": \"accept\", \"plan\": \"Ask\"}", true), 200);
    assertThat(latest(ApiClient.as(port, "reviewer"), run, StepKind.PLAN).get("author").asText()).isEqualTo("reviewer");
  }

  @Test
  void should_set_up_the_demo_users_and_the_rights_of_both_groups() {
    var identity = engine.getIdentityService();
    assertThat(identity.createUserQuery().memberOfGroup(AgentLoopGroups.REVIEWERS).list())
        .extracting(User::getId).contains("reviewer", "operator", "demo");
    assertThat(identity.createUserQuery().memberOfGroup(AgentLoopGroups.OPERATORS).list())
        .extracting(User::getId).contains("operator", "demo").doesNotContain("reviewer");

    var authorizations = engine.getAuthorizationService();
    assertThat(authorizations.isUserAuthorized("reviewer", java.util.List.of(AgentLoopGroups.REVIEWERS),
        Permissions.ACCESS, Resources.APPLICATION, "tasklist")).isTrue();
    assertThat(authorizations.isUserAuthorized("reviewer", java.util.List.of(AgentLoopGroups.REVIEWERS),
        Permissions.ACCESS, Resources.APPLICATION, "cockpit")).isFalse();
    assertThat(authorizations.isUserAuthorized("operator", java.util.List.of(AgentLoopGroups.OPERATORS),
        Permissions.ACCESS, Resources.APPLICATION, "cockpit")).isTrue();
    var filter = engine.getFilterService().createFilterQuery().filterName(AccessBootstrap.REVIEW_FILTER).singleResult();
    assertThat(authorizations.isUserAuthorized("reviewer", java.util.List.of(AgentLoopGroups.REVIEWERS),
        Permissions.READ, Resources.FILTER, filter.getId())).isTrue();
  }

  @Test
  void should_list_the_question_in_the_review_filter_also_where_an_earlier_version_made_it() {
    var filters = engine.getFilterService();
    var filter = filters.createFilterQuery().filterName(AccessBootstrap.REVIEW_FILTER).singleResult();
    assertThat(filter.getProperties().get("variables").toString()).isEqualTo("[{name=subject, label=Question}]");

    // given the filter as versions before the column made it
    java.util.Map<String, Object> earlier = new java.util.HashMap<>(filter.getProperties());
    earlier.remove("variables");
    filters.saveFilter(filter.setProperties(earlier));

    // when AgentLoop starts again
    new AccessBootstrap(true).postProcessEngineBuild(engine);

    // then the column is back and the filter's other settings stay
    var updated = filters.getFilter(filter.getId());
    assertThat(updated.getProperties().get("variables").toString()).isEqualTo("[{name=subject, label=Question}]");
    assertThat(updated.getProperties()).containsEntry("priority", -10);
    assertThat(filters.createFilterQuery().filterName(AccessBootstrap.REVIEW_FILTER).count()).isEqualTo(1);
  }

  private static JsonNode awaitTask(ApiClient client, String run) {
    return await().atMost(Runs.PATIENCE).until(() -> body(client.get("/api/runs/" + run + "/tasks"), 200),
        tasks -> tasks.size() == 1).get(0);
  }

  private static JsonNode latest(ApiClient client, String run, StepKind kind) {
    JsonNode latest = null;
    for (JsonNode step : body(client.get("/api/runs/" + run + "/trace"), 200).get("steps")) {
      if (step.get("kind").asText().equals(kind.name())) {
        latest = step;
      }
    }
    return latest;
  }

  /** A browser's session with the Camunda webapps: logged in to Tasklist, cookies and CSRF token kept. */
  record WebappSession(HttpClient http, CookieManager cookies, int port) {

    static WebappSession login(int port, String user) throws Exception {
      CookieManager cookies = new CookieManager();
      HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).build();
      WebappSession session = new WebappSession(http, cookies, port);
      http.send(HttpRequest.newBuilder(session.uri("/camunda/app/tasklist/")).GET().build(),
          HttpResponse.BodyHandlers.discarding());
      HttpResponse<String> login = http.send(HttpRequest.newBuilder(
              session.uri("/camunda/api/admin/auth/user/default/login/tasklist"))
          .header("Content-Type", "application/x-www-form-urlencoded").header("X-XSRF-TOKEN", session.csrfToken())
          .POST(HttpRequest.BodyPublishers.ofString("username=" + user + "&password=" + user)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
      // login starts a new session; the webapp's next request gives it its CSRF token, as in a browser
      assertThat(session.get("/camunda/api/admin/auth/user/default").statusCode()).isEqualTo(200);
      return session;
    }

    HttpResponse<String> get(String path) throws Exception {
      return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json, boolean withCsrfToken) throws Exception {
      HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json));
      if (withCsrfToken) {
        request.header("X-XSRF-TOKEN", csrfToken());
      }
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String csrfToken() {
      return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("XSRF-TOKEN"))
          .map(HttpCookie::getValue).reduce((first, last) -> last).orElseThrow();
    }

    private URI uri(String path) {
      return URI.create("http://localhost:" + port + path);
    }
  }
}
