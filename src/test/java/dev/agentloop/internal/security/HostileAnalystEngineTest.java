package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.List;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The analyst's attacks through the engine's Java API, {@link RepositoryService} under the analyst's authentication
 * (its groups as Camunda reads them), the way a plugin, a Cockpit script or the engine REST API itself calls the
 * engine: a listener that reads a secret, a Java class written with Camunda's model API, AgentLoop's default key, a
 * shipped form id, a redeployment of a key handed to another group, a cascading delete of someone else's run. Each
 * throws an {@link AuthorizationException} naming what is refused, and nothing changes; {@link HostileAnalystTest} and
 * {@link HostileAnalystKeysTest} try the same through {@code /engine-rest} as Modeler does.
 */
@AgentLoopTest
class HostileAnalystEngineTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @AfterEach
  void signOut() {
    engine.getIdentityService().clearAuthentication();
  }

  @Test
  void should_refuse_a_listener_that_reads_the_models_key_deployed_through_the_repository_service() {
    String leak = ModelerDeploy.copyOfReactAgent("java-leak-agent", "Leak").replace("</bpmn:process>",
        "<bpmn:extensionElements><camunda:executionListener event=\"start\" expression=\"${execution.setVariable("
            + "'leak', environment.getProperty('agentloop.llm.api-key'))}\" /></bpmn:extensionElements>"
            + "</bpmn:process>");

    assertThatThrownBy(() -> asAnalyst().createDeployment().name("java-leak").addString("leak.bpmn", leak).deploy())
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("user analyst may deploy agents only")
        .hasMessageContaining("process 'java-leak-agent': camunda:executionListener runs code")
        .hasMessageContaining("Nothing was deployed");
    assertThat(versions("java-leak-agent")).isZero();
  }

  @Test
  void should_refuse_a_java_class_written_with_camundas_model_api() {
    BpmnModelInstance model = Bpmn.createExecutableProcess("java-class-agent").startEvent()
        .serviceTask("plan").camundaExternalTask(ReactAgentProcess.TOPIC_PLAN)
        .serviceTask("steal").camundaClass("com.example.Steal").endEvent().done();

    assertThatThrownBy(() -> asAnalyst().createDeployment().addModelInstance("class.bpmn", model).deploy())
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("serviceTask 'steal': attribute camunda:class runs Java code of the application");
    assertThat(versions("java-class-agent")).isZero();
  }

  @Test
  void should_refuse_agentloops_default_key_and_a_shipped_form_id() {
    String react = ModelerDeploy.copyOfReactAgent(ReactAgentProcess.KEY, "Mine");
    long reactVersions = versions(ReactAgentProcess.KEY);

    assertThatThrownBy(() -> asAnalyst().createDeployment().addString("react-agent.bpmn", react).deploy())
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("the agent 'react-agent' is AgentLoop's default agent");
    assertThatThrownBy(() -> asAnalyst().createDeployment().name("java-form").addString("review-answer.form",
            "{\"id\": \"react-agent-review-answer\", \"type\": \"default\", \"components\": []}").deploy())
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("review-answer.form: is no diagram");
    assertThat(versions(ReactAgentProcess.KEY)).isEqualTo(reactVersions);
    assertThat(engine.getRepositoryService().createDeploymentQuery().deploymentName("java-form").count()).isZero();
  }

  @Test
  void should_refuse_to_redeploy_the_analysts_own_deployment_of_a_key_handed_to_another_group() {
    // given an analyst's agent, whose key an administrator then handed to another group
    String own = asAnalyst().createDeployment().name("java-handed").addString("java-handed-agent.bpmn",
        ModelerDeploy.copyOfReactAgent("java-handed-agent", "Handed")).deploy().getId();
    engine.getIdentityService().clearAuthentication();
    group("javateam");
    body(ApiClient.as(port, "demo").put("/api/agents/java-handed-agent/owner", "{\"group\": \"javateam\"}"), 200);

    // when the analyst redeploys its own deployment, which needs no file of its own
    assertThatThrownBy(() -> asAnalyst().createDeployment().name("java-handed").addDeploymentResources(own).deploy())
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("the agent 'java-handed-agent' belongs to the group javateam");

    // then the key keeps its one version
    assertThat(versions("java-handed-agent")).isOne();
  }

  @Test
  void should_refuse_to_delete_with_cascade_a_deployment_holding_a_run_someone_else_started() {
    String deployment = asAnalyst().createDeployment().addString("java-cascade-agent.bpmn",
        ModelerDeploy.copyOfReactAgent("java-cascade-agent", "Cascade")).deploy().getId();
    engine.getIdentityService().clearAuthentication();
    String run = body(ApiClient.as(port, "reviewer").post("/api/runs", "{\"agent\": \"java-cascade-agent\","
        + " \"question\": \"review-plan: someone else's run\"}"), 201).get("id").asText();

    assertThatThrownBy(() -> asAnalyst().deleteDeployment(deployment, true))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("may not delete the deployment " + deployment + " with cascade: it holds 1 run");
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(run).count()).isOne();
  }

  /** The repository service under the analyst's authentication, with the groups Camunda knows for it. */
  private RepositoryService asAnalyst() {
    IdentityService identity = engine.getIdentityService();
    List<String> groups = identity.createGroupQuery().groupMember("analyst").list().stream().map(Group::getId).toList();
    identity.setAuthentication("analyst", groups);
    return engine.getRepositoryService();
  }

  private void group(String id) {
    IdentityService identity = engine.getIdentityService();
    if (identity.createGroupQuery().groupId(id).count() == 0) {
      identity.saveGroup(identity.newGroup(id));
    }
  }

  private long versions(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count();
  }
}
