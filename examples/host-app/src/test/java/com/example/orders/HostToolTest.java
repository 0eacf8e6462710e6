package com.example.orders;

import static com.example.orders.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The team's own tool ({@link OrderStatusTool}, a bean) called by AgentLoop's default agent, configured as the
 * documentation says: its name in {@code agentloop.agent.allowed-tools} (application.properties), no copy of
 * the diagram. Plans and answers are accepted automatically here, so the run needs no person.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:host-tool-${random.uuid};DB_CLOSE_DELAY=-1",
    "agentloop.agent.auto-accept-plan=true", "agentloop.agent.auto-accept-answer=true"})
class HostToolTest {

  @LocalServerPort int port;

  @Test
  void should_let_the_default_agent_call_the_hosts_own_tool_named_in_the_application_settings() {
    Http admin = Http.as(port, "admin", "admin");
    assertThat(Http.anonymous(port).post("/api/orders", "{\"item\": \"standing desk\", \"amount\": 1}").statusCode())
        .isEqualTo(201);

    HttpResponse<String> started = admin.post("/api/runs",
        "{\"question\": \"What is the status of the standing desk order?\"}");

    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    String run = json(started).get("id").asText();
    JsonNode answered = await().atMost(Duration.ofSeconds(60)).until(() -> json(admin.get("/api/runs/" + run)),
        view -> !view.get("status").asText().equals("RUNNING") && view.hasNonNull("finalAnswer"));
    // the scripted model answers so only when the tool's observation says where the order waits
    assertThat(answered.get("finalAnswer").asText()).isEqualTo("The standing desk order waits for its approval.");
  }

  @Test
  void should_refuse_to_start_when_the_allowed_tools_name_a_tool_nobody_registered() {
    SpringApplicationBuilder application = new SpringApplicationBuilder(OrderApplication.class).properties(
        "spring.datasource.url=jdbc:h2:mem:host-tool-typo;DB_CLOSE_DELAY=-1", "server.port=0");

    assertThatThrownBy(() -> application.run("--agentloop.agent.allowed-tools=calculator, order_statu"))
        .hasStackTraceContaining("agent property 'allowedTools' names the unknown tool 'order_statu'; registered tools:")
        .hasStackTraceContaining("order_status");
  }
}
