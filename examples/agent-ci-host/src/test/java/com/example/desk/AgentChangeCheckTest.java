package com.example.desk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.api.AgentLoopGroups;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The check the team's CI runs on every pull request: the application starts (H2, the model on OpenAI's wire, here a
 * local fake), and the order desk's diagram as it is in the working tree is evaluated as a candidate on the data set
 * in the repository, through AgentLoop's REST API; a failed case fails the build and says which and why. The first
 * test is the check; the others show that it fails where it should, so that its passing means something.
 */
@SpringBootTest(classes = DeskApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.api-key=ci-fake-key", "agentloop.evaluation.poll-interval=PT0.1S"})
class AgentChangeCheckTest {

  static final String AGENT = "order-desk";
  static final Path DIAGRAM = Path.of("src/main/resources/processes/order-desk.bpmn");
  static final Path CASES = Path.of("src/test/resources/evaluation/order-desk-cases.json");
  /** The sentence a "terser prompt" drops: the one that says how long customers may return an item. */
  static final String RETURNS =
      " Returns: a customer may return an item within 30 days of delivery, unused and in its box.";

  private static final FakeOpenAi MODEL = start();

  @Autowired IdentityService identity;
  @LocalServerPort int port;

  @DynamicPropertySource
  static void model(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", MODEL::baseUrl);
  }

  @AfterAll
  static void stopModel() {
    MODEL.close();
  }

  /** CI's own user: it may evaluate agents (agent-operators), not promote or deploy them. */
  @BeforeEach
  void ciUser() {
    if (identity.createUserQuery().userId("ci").count() == 0) {
      User user = identity.newUser("ci");
      user.setPassword("ci-secret");
      identity.saveUser(user);
      identity.createMembership("ci", AgentLoopGroups.OPERATORS);
    }
  }

  @Test
  void the_agent_in_the_working_tree_fails_no_case_of_its_data_set() {
    JsonNode evaluation = check().assertPasses(AGENT, DIAGRAM, CASES);

    assertThat(evaluation.at("/summary/cases").asInt()).isEqualTo(3);
    assertThat(evaluation.at("/summary/failed").asInt()).isZero();
    // the order was looked up live (read-only; a data-set case has no record to answer from): changed, and passing
    JsonNode order = evaluation.path("cases").get(0);
    assertThat(order.path("verdict").asText()).isEqualTo("CHANGED");
    assertThat(order.at("/result/marks").toString()).contains("call not recorded, ran live: order_status");
    assertThat(order.at("/result/candidate/answer").asText())
        .isEqualTo("Order 42: shipped on 27 November, arrives on 2 December.");
    assertThat(evaluation.path("cases").get(1).path("verdict").asText()).isEqualTo("SAME");
    // CI checks the change and no more: making the candidate live is a person's decision
    HttpResponse<String> promoted = post("/api/evaluations/" + evaluation.path("id").asText() + "/promote");
    assertThat(promoted.statusCode()).as(promoted.body()).isEqualTo(403);
    assertThat(promoted.body()).contains("may not promote");
  }

  @Test
  void a_prompt_change_that_breaks_a_case_fails_the_check_naming_the_case_its_expectation_and_the_answer() {
    String diagram = read(DIAGRAM);
    assertThat(diagram).contains(RETURNS);
    String terser = diagram.replace(RETURNS, "");

    assertThatThrownBy(() -> check().assertPasses(AGENT, terser, cases()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("The agent 'order-desk' failed 1 of 3 cases")
        .hasMessageContaining("- case 2: \"How long do I have to return an item?\"")
        .hasMessageContaining("expected: the answer contains '30 days' (any case) [contains]")
        .hasMessageContaining("answered: \"" + OrderDeskModel.NO_ANSWER + "\"")
        // the cases the change did not touch are not named
        .satisfies(failure -> assertThat(failure.getMessage()).doesNotContain("order 42?", "opening hours"));
  }

  @Test
  void a_diagram_that_does_not_parse_fails_the_check_in_agentloops_words_before_any_case_runs() {
    String broken = read(DIAGRAM).replace("</bpmn:definitions>", "");

    assertThatThrownBy(() -> check().assertPasses(AGENT, broken, cases()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("AgentLoop refused to evaluate the agent 'order-desk' (HTTP 400)")
        .hasMessageContaining("no BPMN diagram Camunda can read");
  }

  @Test
  void a_data_set_with_a_broken_expectation_fails_the_check_naming_it() {
    JsonNode cases = cases();
    ((ObjectNode) cases.get(0).path("expect")).putArray("matches").add("(unclosed");

    assertThatThrownBy(() -> check().assertPasses(AGENT, read(DIAGRAM), cases))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("(HTTP 400)")
        .hasMessageContaining("field \"cases.[0].expect\" is refused: expect.matches holds '(unclosed', which is no"
            + " regular expression");
  }

  private AgentEvaluation check() {
    return new AgentEvaluation("http://localhost:" + port + "/api", "ci", "ci-secret", Duration.ofMinutes(2));
  }

  private HttpResponse<String> post(String path) {
    String credentials = Base64.getEncoder().encodeToString("ci:ci-secret".getBytes(StandardCharsets.UTF_8));
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
          .header("Authorization", "Basic " + credentials).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode cases() {
    try {
      return new ObjectMapper().readTree(CASES.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FakeOpenAi start() {
    try {
      return new FakeOpenAi(OrderDeskModel::reply);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
