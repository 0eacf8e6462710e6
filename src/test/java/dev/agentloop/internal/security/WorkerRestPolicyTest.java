package dev.agentloop.internal.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/** The worker fence's decisions on paths and bodies a worker could bend, without an engine. */
class WorkerRestPolicyTest {

  private static final String TOOL_TASK = "tool-1";
  private static final String THINK_TASK = "think-1";

  private final WorkerRestPolicy calls = new WorkerRestPolicy(new WorkerRestPolicy.Engine() {
    @Override
    public Optional<WorkerRestPolicy.ExternalTaskFacts> externalTask(String id) {
      return Optional.ofNullable(Map.of(
          TOOL_TASK, new WorkerRestPolicy.ExternalTaskFacts("agentloop.tool.crm_lookup", "agent:1"),
          THINK_TASK, new WorkerRestPolicy.ExternalTaskFacts("agentloop.think", "agent:1")).get(id));
    }

    @Override
    public boolean catches(String processDefinitionId, String errorCode) {
      return errorCode.equals("TOOL_UNAVAILABLE");
    }
  });

  @Test
  void should_allow_exactly_the_calls_of_a_tool_worker() {
    assertThat(check("POST", "/external-task/fetchAndLock", fetch("agentloop.tool.crm_lookup"))).isNull();
    assertThat(check("POST", "/external-task/tool-1/complete", "{\"localVariables\": {\"result\": {\"value\": \"x\"}}}"))
        .isNull();
    assertThat(check("POST", "/external-task/tool-1/failure", "{\"errorMessage\": \"down\", \"retries\": 1}")).isNull();
    assertThat(check("POST", "/external-task/tool-1/bpmnError", "{\"errorCode\": \"TOOL_UNAVAILABLE\"}")).isNull();
    assertThat(check("POST", "/external-task/tool-1/extendLock", "{\"newDuration\": 1000}")).isNull();
    assertThat(check("POST", "/external-task/tool-1/unlock", "")).isNull();
    assertThat(check("POST", "/external-task/tool-1/lock", "{\"lockDuration\": 1000}")).isNull();
    // a task that no longer exists: the engine answers 404 itself
    assertThat(check("POST", "/external-task/gone/complete", "{}")).isNull();
  }

  @Test
  void should_refuse_paths_methods_and_bodies_it_does_not_know_exactly() {
    assertThat(check("GET", "/external-task/fetchAndLock", "")).contains("not a call of a remote tool worker");
    assertThat(check("POST", "/external-task;x=1/fetchAndLock", fetch("agentloop.tool.a"))).contains("not a call");
    assertThat(check("POST", "/external-task/fetchAndLock/", fetch("agentloop.tool.a"))).contains("not a call");
    assertThat(check("POST", "/external-task/tool%2D1/complete", "{}")).contains("not a call");
    assertThat(check("POST", "/external-task/tool-1/retries", "{}")).contains("not a call");
    assertThat(check("POST", "/external-task/fetchAndLock", "{\"topics\": [")).contains("no JSON object");
    assertThat(check("POST", "/external-task/fetchAndLock", "[]")).contains("must be a JSON object");
    assertThat(check("POST", "/external-task/fetchAndLock", "{\"topics\": []}")).contains("must name its topics");
    assertThat(check("POST", "/external-task/fetchAndLock", fetch("agentloop.tool."))).contains("not a tool topic");
    assertThat(check("POST", "/external-task/fetchAndLock",
        "{\"topics\": [{\"topicName\": \"agentloop.tool.a\", \"variables\": [\"callId\"]}],"
            + " \"topics\": [{\"topicName\": \"agentloop.think\", \"variables\": [\"callId\"]}]}"))
        .contains("Duplicate field 'topics'");
    assertThat(check("POST", "/external-task/think-1/unlock", "")).contains("topic 'agentloop.think'");
    assertThat(check("POST", "/external-task/tool-1/complete", "{\"localVariables\": \"result\"}"))
        .contains("must be a JSON object");
    assertThat(check("POST", "/external-task/tool-1/bpmnError", "{\"errorCode\": \"TOOL_UNAVAILABLE\","
        + " \"variables\": {\"route\": {\"value\": \"done\"}}}")).contains("may not set process variables");
  }

  @Test
  void should_answer_a_fetch_the_engine_would_fail_on_as_malformed_naming_the_field() {
    String topic = "{\"topicName\": \"agentloop.tool.a\", \"variables\": [\"callId\"]";
    assertMalformed("{\"workerId\": \"w\", \"topics\": [" + topic + "}]}", "lockDuration must be a positive number");
    assertMalformed("{\"workerId\": \"w\", \"topics\": [" + topic + ", \"lockDuration\": 0}]}", "lockDuration");
    assertMalformed("{\"workerId\": \"w\", \"topics\": [" + topic + ", \"lockDuration\": \"soon\"}]}", "lockDuration");
    assertMalformed("{\"workerId\": \"w\", \"topics\": [" + topic + ", \"lockDuration\": 1000,"
        + " \"processVariables\": {\"question\": {\"value\": \"x\"}}}]}", "processVariables.question must be a string");
    assertMalformed("{\"workerId\": \"w\", \"topics\": [" + topic + ", \"lockDuration\": 1000,"
        + " \"processVariables\": [\"question\"]}]}", "processVariables must be a JSON object");
    assertMalformed("{\"topics\": [" + topic + ", \"lockDuration\": 1000}]}", "workerId");
    // a plain value in the filter stays allowed
    assertThat(check("POST", "/external-task/fetchAndLock", "{\"workerId\": \"w\", \"topics\": [" + topic
        + ", \"lockDuration\": 1000, \"processVariables\": {\"question\": \"x\", \"n\": 1}}]}")).isNull();
    // a refusal stays a refusal, whatever else is wrong
    assertThat(calls.check("POST", "/external-task/fetchAndLock", "{\"topics\": [{\"topicName\": \"agentloop.think\"}]}"
        .getBytes(StandardCharsets.UTF_8)).malformed()).isFalse();
  }

  @Test
  void should_hand_the_engine_a_nul_in_a_workers_body_as_the_escape_of_u_fffd_of_the_same_length() throws Exception {
    String body = "{\"localVariables\": {\"result\": {\"value\": \"a\\u0000b\"}}}";
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/engine-rest/external-task/t/complete");
    request.setContent(body.getBytes(StandardCharsets.UTF_8));

    byte[] handed = EngineRestGate.storable(CachedBodyRequest.of(request, 1024).orElseThrow()).body();

    assertThat(new String(handed, StandardCharsets.UTF_8))
        .isEqualTo("{\"localVariables\": {\"result\": {\"value\": \"a\\uFFFDb\"}}}").hasSize(body.length());
  }

  private void assertMalformed(String body, String detail) {
    WorkerRestPolicy.Decision decision = calls.check("POST", "/external-task/fetchAndLock", body.getBytes(StandardCharsets.UTF_8));
    assertThat(decision.malformed()).as(body).isTrue();
    assertThat(decision.refusal()).contains(detail);
  }

  private String check(String method, String path, String body) {
    return calls.check(method, path, body.getBytes(StandardCharsets.UTF_8)).refusal();
  }

  private static String fetch(String topic) {
    return "{\"workerId\": \"w\", \"topics\": [{\"topicName\": \"" + topic + "\", \"lockDuration\": 1000,"
        + " \"variables\": [\"arguments\"]}]}";
  }
}
