package com.example.orders;

import static com.example.orders.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.api.AgentRuns;
import java.io.InputStream;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.history.HistoryLevel;
import org.camunda.bpm.engine.repository.Deployment;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * AgentLoop embedded in a team's own Camunda application, with nothing but the dependency and the
 * application's own configuration: the host keeps everything it had (its process, its {@code /api},
 * its users, its engine settings, an open {@code /engine-rest}), and AgentLoop works there (its forms
 * and default agent deployed by itself, {@code /api/runs}, the review forms in Tasklist, the tabs in
 * Cockpit, rights only on agents).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.datasource.url=jdbc:h2:mem:embedding-${random.uuid};DB_CLOSE_DELAY=-1")
class EmbeddingTest {

  static final String QUESTION = "What is 17 * 23 plus the number of days in a leap year?";
  static final List<String> AGENTLOOP_FILES = List.of("processes/react-agent.bpmn",
      "forms/react-agent-agent-stuck.form", "forms/react-agent-approve-action.form", "forms/react-agent-ask-human.form",
      "forms/react-agent-review-answer.form", "forms/react-agent-review-plan.form", "forms/react-agent-start.form");
  static final List<String> AGENTLOOP_GROUPS = List.of("agent-reviewers", "agent-operators", "agent-workers");
  static final Duration PATIENCE = Duration.ofSeconds(60);

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_deploy_and_run_the_hosts_own_process_through_its_own_api_without_credentials() {
    Http anybody = Http.anonymous(port);

    HttpResponse<String> placed = anybody.post("/api/orders", "{\"item\": \"chairs\", \"amount\": 12}");

    assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
    String instance = json(placed).get("id").asText();
    assertThat(anybody.get("/api/orders").statusCode()).isEqualTo(200);
    Task approval = engine.getTaskService().createTaskQuery().processInstanceId(instance).singleResult();
    assertThat(approval.getTaskDefinitionKey()).isEqualTo("approveOrder");
    engine.getTaskService().complete(approval.getId());
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(instance)
        .singleResult().getState()).isEqualTo("COMPLETED");
  }

  @Test
  void should_leave_the_errors_of_the_hosts_own_api_to_the_host() {
    HttpResponse<String> unknown = Http.anonymous(port).get("/api/orders/unknown/items");

    // Spring Boot's own error body, not AgentLoop's problem documents or its authentication
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
    assertThat(unknown.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
        assertThat(type).startsWith("application/json"));
    assertThat(json(unknown).get("path").asText()).isEqualTo("/api/orders/unknown/items");
  }

  @Test
  void should_leave_the_engine_rest_api_as_the_host_configured_it() {
    // (Camunda's authentication filter would let /engine-rest/engine through anyway: ask for definitions)
    HttpResponse<String> definitions = Http.anonymous(port).get("/engine-rest/process-definition?key=order-approval");

    assertThat(definitions.statusCode()).as(definitions.body()).isEqualTo(200);
  }

  @Test
  void should_deploy_its_forms_and_default_agent_itself_and_not_through_the_hosts_deployment() {
    var repository = engine.getRepositoryService();

    Deployment agentloop = repository.createDeploymentQuery().deploymentName("agentloop").singleResult();

    assertThat(repository.getDeploymentResourceNames(agentloop.getId()))
        .containsExactlyInAnyOrderElementsOf(AGENTLOOP_FILES);
    List<ProcessDefinition> agents = repository.createProcessDefinitionQuery().processDefinitionKey("react-agent").list();
    assertThat(agents).extracting(ProcessDefinition::getDeploymentId).containsExactly(agentloop.getId());
    ProcessDefinition orders = repository.createProcessDefinitionQuery().processDefinitionKey("order-approval")
        .singleResult();
    assertThat(orders.getDeploymentId()).isNotEqualTo(agentloop.getId());
    // the host's default pattern (classpath*:**/*.bpmn) sees react-agent.bpmn in AgentLoop's jar too
    assertThat(repository.getDeploymentResourceNames(orders.getDeploymentId()))
        .noneMatch(name -> name.endsWith("react-agent.bpmn"));
  }

  @Test
  void should_bring_nothing_of_the_demo_app() {
    ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();

    assertThat(engine.getIdentityService().createUserQuery().userIdIn("reviewer", "operator", "worker", "demo").count())
        .isZero();
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("support-triage-agent")
        .count()).isZero();
    // the host sets neither: Camunda's defaults stay
    assertThat(configuration.getHistoryLevel()).isEqualTo(HistoryLevel.HISTORY_LEVEL_FULL);
    assertThat(configuration.isAuthorizationEnabled()).isTrue();
    assertThat(getClass().getClassLoader().getResource("application.yaml")).isNull();
    // no endpoints the host did not have: AgentLoop does not bring Spring Boot's actuator
    assertThat(Http.anonymous(port).get("/actuator/health").statusCode()).isEqualTo(404);
    assertThat(getClass().getClassLoader().getResource("application-postgres.yaml")).isNull();
  }

  @Test
  void should_ship_the_configuration_metadata_of_its_properties_in_its_jar() throws Exception {
    String jar = AgentRuns.class.getProtectionDomain().getCodeSource().getLocation().toString();
    List<String> keys = new ArrayList<>();
    for (URL metadata : Collections.list(getClass().getClassLoader()
        .getResources("META-INF/spring-configuration-metadata.json"))) {
      if (metadata.toString().contains(jar)) {
        try (InputStream in = metadata.openStream()) {
          Http.JSON.readTree(in).get("properties").forEach(property -> keys.add(property.get("name").asText()));
        }
      }
    }

    assertThat(jar).endsWith(".jar");
    assertThat(keys).contains("agentloop.enabled", "agentloop.api.base-path", "agentloop.deployment.default-agent",
        "agentloop.security.secure-engine-rest", "agentloop.llm.provider");
  }

  @Test
  void should_grant_its_groups_rights_on_agents_only() {
    AuthorizationService authorizations = engine.getAuthorizationService();

    List<String> definitions = authorizations.createAuthorizationQuery()
        .groupIdIn(AGENTLOOP_GROUPS.toArray(String[]::new)).resourceType(Resources.PROCESS_DEFINITION).list().stream()
        .map(Authorization::getResourceId).toList();

    assertThat(definitions).isNotEmpty().containsOnly("react-agent");
    // this host secures /engine-rest itself, so AgentLoop cannot fence what workers call there: they get nothing
    assertThat(authorizations.createAuthorizationQuery().groupIdIn("agent-workers")
        .resourceType(Resources.PROCESS_DEFINITION).count()).isZero();
  }

  @Test
  void should_answer_a_run_through_its_api_with_its_forms_in_tasklist_and_its_tabs_in_cockpit() {
    reviewer("rita", "rita-secret");
    Http rita = Http.as(port, "rita", "rita-secret");

    HttpResponse<String> started = rita.post("/api/runs", "{\"question\": \"" + QUESTION + "\"}");

    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    String run = json(started).get("id").asText();
    assertThat(json(started).get("agent").asText()).isEqualTo("react-agent");
    String planReview = awaitTask(rita, run, "reviewPlan");
    inBrowser("tasklist", browser -> {
      browser.login("tasklist", "rita", "rita-secret");
      browser.go("/camunda/app/tasklist/default/#/?task=" + planReview);
      // the question shows as text in a read-only field, never as Markdown
      assertThat(browser.await(By.cssSelector(".fjs-form textarea[id$='-question']")).getAttribute("value"))
          .isEqualTo(QUESTION);
      assertThat(browser.await(By.cssSelector(".fjs-form textarea[id$='-plan']")).getAttribute("value"))
          .startsWith("Compute 17 * 23 with the calculator");
    });
    complete(rita, run, planReview);
    String answerReview = awaitTask(rita, run, "reviewAnswer");
    inBrowser("cockpit", browser -> {
      browser.login("cockpit", "admin", "admin");
      browser.go("/camunda/app/cockpit/default/#/process-instance/" + run + "/runtime?tab=agentloop.processInstance.trace");
      browser.await(By.cssSelector(".agentloop[data-run='" + run + "'] .agentloop-active-path"));
    });
    complete(rita, run, answerReview);

    JsonNode answered = await().atMost(PATIENCE).until(() -> json(rita.get("/api/runs/" + run)),
        view -> view.get("status").asText().equals("ANSWERED"));
    assertThat(answered.get("finalAnswer").asText()).contains("757");
  }

  /** A browser session of its own (one login each), with a screenshot when the check fails. */
  private void inBrowser(String name, java.util.function.Consumer<Browser> check) {
    try (Browser browser = Browser.open(port)) {
      try {
        check.accept(browser);
      } catch (RuntimeException | AssertionError e) {
        browser.screenshot("embedding-" + name);
        throw e;
      }
    }
  }

  /** What the host's administrator does in Camunda Admin: a user in AgentLoop's reviewers group. */
  private void reviewer(String id, String password) {
    IdentityService identity = engine.getIdentityService();
    if (identity.createUserQuery().userId(id).count() == 0) {
      User user = identity.newUser(id);
      user.setPassword(password);
      user.setFirstName("Rita");
      user.setLastName("Reviewer");
      identity.saveUser(user);
      identity.createMembership(id, "agent-reviewers");
    }
  }

  private static String awaitTask(Http api, String run, String key) {
    return await().atMost(PATIENCE).until(() -> {
      for (JsonNode task : json(api.get("/api/runs/" + run + "/tasks"))) {
        if (task.get("taskDefinitionKey").asText().equals(key)) {
          return task.get("id").asText();
        }
      }
      return null;
    }, id -> id != null);
  }

  private static void complete(Http api, String run, String task) {
    HttpResponse<String> completed = api.post("/api/runs/" + run + "/tasks/" + task + "/complete",
        "{\"decision\": \"accept\"}");
    assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
  }
}
