package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The team's own business process asks an agent (bpmn/refund-request.bpmn, a call activity built with the element
 * template "Ask an agent") and routes on the run's outcome. An operator who stops the agent's run through
 * AgentLoop's API stops only the run: the refund request goes on, to be handled by hand.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.datasource.url=jdbc:h2:mem:ask-agent-${random.uuid};DB_CLOSE_DELAY=-1")
class AskAgentProcessTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_go_on_with_outcome_stopped_when_an_operator_stops_the_agents_run() {
    operator("olga", "olga-secret");
    RuntimeService runtime = engine.getRuntimeService();
    ProcessInstance request = runtime.startProcessInstanceByKey("refund-request", "order-A-17",
        Map.of("orderId", "A-17", "customerMessage", "The kettle arrived broken."));
    String run = runtime.createProcessInstanceQuery().superProcessInstanceId(request.getId()).singleResult().getId();

    HttpResponse<String> stopped = Http.as(port, "olga", "olga-secret")
        .post("/api/runs/" + run + "/stop", "{\"reason\": \"the customer called instead\"}");

    assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
    assertThat(Http.json(stopped).get("status").asText()).isEqualTo("STOPPED");
    Task byHand = await().atMost(Duration.ofSeconds(30)).until(() -> engine.getTaskService().createTaskQuery()
        .processInstanceId(request.getId()).taskDefinitionKey("handleByHand").singleResult(), task -> task != null);
    assertThat(runtime.getVariable(byHand.getProcessInstanceId(), "agentOutcome")).isEqualTo("STOPPED");
    assertThat(runtime.getVariable(byHand.getProcessInstanceId(), "agentRunId")).isEqualTo(run);
    assertThat(runtime.getVariable(byHand.getProcessInstanceId(), "agentStatusReason"))
        .isEqualTo("stopped by olga: the customer called instead");
  }

  /** What the host's administrator does in Camunda Admin: a user in AgentLoop's operators group. */
  private void operator(String id, String password) {
    IdentityService identity = engine.getIdentityService();
    if (identity.createUserQuery().userId(id).count() == 0) {
      User user = identity.newUser(id);
      user.setPassword(password);
      user.setFirstName("Olga");
      user.setLastName("Operator");
      identity.saveUser(user);
      identity.createMembership(id, "agent-operators");
    }
  }
}
