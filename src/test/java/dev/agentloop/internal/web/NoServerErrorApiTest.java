package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Inputs that a database cannot take (a NUL, a date past PostgreSQL's range) and a request to the error
 * page itself: problem documents that name the field, never a 500. Checked before any query, so the same
 * on H2 and PostgreSQL.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class NoServerErrorApiTest {

  @LocalServerPort int port;

  @Test
  void should_refuse_a_nul_in_a_search_naming_the_parameter(CapturedOutput output) {
    ApiClient operator = ApiClient.as(port, "operator");
    int before = output.length();

    assertProblem(operator.get("/api/runs?q=" + encode("a\0b")), 400, "parameter 'q' is 'a\\u0000b'");
    assertProblem(operator.get("/api/runs?editedBy=" + encode("x\0")), 400, "parameter 'editedBy'");
    assertProblem(operator.get("/api/runs?agent=" + encode(TestAgent.KEY + "\0")), 400, "parameter 'agent'");
    assertProblem(operator.post("/api/runs", "{\"question\": \"hi\", \"agent\": \"test-agent\\u0000\"}"), 400,
        "agent must be a process-definition key, without NUL characters");
    assertThat(output.toString().substring(before)).doesNotContain(" ERROR ");
  }

  @Test
  void should_refuse_a_date_past_what_a_database_stores_naming_the_parameter() {
    ApiClient operator = ApiClient.as(port, "operator");

    assertProblem(operator.get("/api/runs?from=" + encode("+294277-01-01T00:00:00Z")), 400,
        "parameter 'from' is '+294277-01-01T00:00:00Z' but must be between the years 0001 and 9999");
    assertProblem(operator.get("/api/runs?to=" + encode("-4714-01-01T00:00:00Z")), 400, "parameter 'to'");
    assertThat(operator.get("/api/runs?from=" + encode("9999-12-31T00:00:00Z")).statusCode()).isEqualTo(200);
  }

  @Test
  void should_take_a_question_with_a_nul() {
    HttpResponse<String> created = ApiClient.as(port, "operator").post("/api/runs",
        "{\"question\": \"what is \\u0000 here?\", \"agent\": \"" + TestAgent.KEY + "\"}");

    assertThat(body(created, 201).get("question").asText()).isEqualTo("what is \uFFFD here?");
  }

  @Test
  void should_answer_the_error_page_called_by_itself_with_404_not_500() {
    for (ApiClient caller : new ApiClient[] {ApiClient.anonymous(port), ApiClient.as(port, "operator")}) {
      HttpResponse<String> answer = caller.get("/error");
      assertProblem(answer, 404, "/error shows the error of a request that failed");
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
