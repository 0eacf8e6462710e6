package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.resilience.Breakers;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** {@code GET /api/breakers} and what the actuator shows of the breakers and meters, over real HTTP. */
@AgentLoopTest
class BreakerApiTest {

  @LocalServerPort int port;
  @Autowired Breakers breakers;
  @Autowired RunService runs;

  @Test
  void should_list_every_breaker_to_any_authenticated_user() throws Exception {
    HttpResponse<String> response = ApiClient.as(port, "reviewer").get("/api/breakers");

    JsonNode list = ApiClient.body(response, 200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(list).contains(JSON.readTree(
        "{\"name\": \"tool:calculator\", \"kind\": \"tool\", \"target\": \"calculator\", \"state\": \"CLOSED\"}"));
    assertThat(list).contains(JSON.readTree(
        "{\"name\": \"model:scripted\", \"kind\": \"model\", \"target\": \"scripted\", \"state\": \"CLOSED\"}"));
    assertThat(list.get(0).fieldNames()).toIterable().containsExactly("name", "kind", "target", "state");
    assertThat(ApiClient.anonymous(port).get("/api/breakers").statusCode()).isEqualTo(401);
  }

  @Test
  void should_name_open_breakers_in_health_and_show_no_other_details() throws Exception {
    breakers.tool("unreliable").open();
    try {
      HttpResponse<String> response = ApiClient.anonymous(port).get("/actuator/health");

      JsonNode health = ApiClient.body(response, 200);
      assertThat(health.get("status").asText()).isEqualTo("DEGRADED");
      JsonNode component = health.at("/components/breakers");
      assertThat(component.get("status").asText()).isEqualTo("DEGRADED");
      assertThat(component.get("description").asText()).contains("tool:unreliable OPEN");
      assertThat(health.findValues("details")).isEmpty();
      assertThat(response.body()).doesNotContain("diskSpace\":{\"status\":\"UP\",\"details");
    } finally {
      breakers.tool("unreliable").close();
    }
    JsonNode healthy = JSON.readTree(ApiClient.anonymous(port).get("/actuator/health").body());
    assertThat(healthy.at("/components/breakers/status").asText()).isEqualTo("UP");
  }

  @Test
  void should_expose_agentloops_meters_for_prometheus() {
    String run = runs.start(TestAgent.KEY, "multi-step: metered");
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    HttpResponse<String> response = ApiClient.anonymous(port).get("/actuator/prometheus");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body())
        .contains("agentloop_breaker_state{kind=\"tool\",name=\"tool:calculator\",target=\"calculator\"} 0.0")
        .contains("agentloop_tool_calls_seconds_count{outcome=\"success\",tool=\"calculator\"}")
        .contains("agentloop_model_calls_seconds_count{endpoint=\"scripted\",outcome=\"success\"}");
  }

  @Test
  void should_expose_no_other_actuator_endpoint() {
    for (String endpoint : new String[] {"/actuator/env", "/actuator/beans", "/actuator/configprops", "/actuator/metrics"}) {
      assertThat(ApiClient.anonymous(port).get(endpoint).statusCode()).as(endpoint).isEqualTo(404);
    }
  }
}
