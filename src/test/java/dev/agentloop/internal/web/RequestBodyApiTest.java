package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * AgentLoop reads request bodies with its own JSON mapper: a field it does not know is refused by name
 * (never silently dropped), a value of the wrong type or broken JSON is named, each with the endpoint's
 * example, and nothing is started or changed by a body that was refused.
 */
@AgentLoopTest
class RequestBodyApiTest {

  @LocalServerPort int port;

  @Test
  void should_refuse_an_unknown_field_by_name_and_start_nothing() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String question = "unknown field " + System.nanoTime();

    // when
    var response = operator.post("/api/runs", "{\"question\": \"" + question + "\", \"previousRun\": \"r-1\"}");

    // then
    assertProblem(response, 400, "unknown field \"previousRun\"");
    assertThat(body(response, 400).get("detail").asText())
        .contains("this endpoint takes agent, answerSchema, conversationId, question")
        .contains("{\"question\": \"What is 17 * 23?\", \"agent\": \"react-agent\"}");
    JsonNode started = body(operator.get("/api/runs?agent=" + TestAgent.KEY + "&q="
        + URLEncoder.encode(question, StandardCharsets.UTF_8)), 200);
    assertThat(started).isEmpty();
  }

  @Test
  void should_name_a_field_of_the_wrong_type_and_broken_json_with_the_endpoints_example() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String run = body(operator.post("/api/runs", "{\"question\": \"multi-step: wrong types\", \"agent\": \""
        + TestAgent.KEY + "\"}"), 201).get("id").asText();

    // when / then
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": \"three\", \"reason\": \"r\"}"), 400,
        "field \"fromStep\" cannot be read as a whole number; send e.g. {\"fromStep\": 3");
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": 3, \"reason\": \"r\", \"step\": 2}"),
        400, "unknown field \"step\": this endpoint takes fromStep, reason");
    assertProblem(operator.post("/api/runs/" + run + "/steps/2/edit", "{\"content\": {\"text\": \"x\"}, \"reason\": \"r\","),
        400, "the body is not valid JSON at line 1, column 42: unexpected end-of-input");
    assertProblem(operator.post("/api/runs/" + run + "/stop", ""), 400, "the body is missing; send e.g. {\"reason\"");
    assertProblem(operator.post("/api/runs/" + run + "/stop", "[\"why\"]"), 400, "{\"reason\": \"the tool was down\"}");
  }

  @Test
  void should_read_a_value_as_what_it_is_never_a_number_as_text_nor_a_fraction_as_a_turn() {
    ApiClient operator = ApiClient.as(port, "operator");

    // a number or a flag is no question, and nothing starts
    assertProblem(operator.post("/api/runs", "{\"question\": 5}"), 400, "field \"question\" cannot be read as a string");
    assertProblem(operator.post("/api/runs", "{\"question\": true, \"agent\": \"" + TestAgent.KEY + "\"}"), 400,
        "field \"question\" cannot be read as a string");
    // 1.5 is no turn, and "3" no step
    String run = body(operator.post("/api/runs", "{\"question\": \"multi-step: strict types\", \"agent\": \""
        + TestAgent.KEY + "\"}"), 201).get("id").asText();
    assertProblem(operator.post("/api/runs/" + run + "/regenerate", "{\"turn\": 1.5, \"reason\": \"r\"}"), 400,
        "field \"turn\" cannot be read as a whole number");
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": \"3\", \"reason\": \"r\"}"), 400,
        "field \"fromStep\" cannot be read as a whole number");
  }

  @Test
  void should_name_a_value_its_check_refuses_with_the_checks_words_and_evaluate_nothing() {
    ApiClient operator = ApiClient.as(port, "operator");
    String path = "/api/agents/" + TestAgent.KEY + "/evaluations";
    String before = body(operator.get(path), 200).toString();

    // a data set's expectation that is no regular expression, and a case without a question, each by where it is
    assertProblem(operator.post(path, "{\"version\": 1, \"cases\": [{\"question\": \"q\", \"expect\":"
        + " {\"matches\": [\"(unclosed\"]}}]}"), 400, "field \"cases.[0].expect\" is refused: expect.matches holds"
        + " '(unclosed', which is no regular expression");
    assertProblem(operator.post(path, "{\"version\": 1, \"cases\": [{\"question\": \"q\"}, {\"expect\": {}}]}"),
        400, "field \"cases.[1]\" is refused: question must be a question, was empty");
    assertThat(body(operator.get(path), 200).toString()).isEqualTo(before);
  }
}
