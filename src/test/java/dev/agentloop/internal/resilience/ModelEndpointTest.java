package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The agent against a real OpenAI-compatible wire (a local fake server, see {@link FakeOpenAiServer}):
 * an endpoint that goes down ends in an incident that an operator retries, and hostile replies, in
 * their content or on the wire, end in an answer, an error observation or an incident that says what
 * happened. The endpoint's breaker opens after 5 of 10 failed attempts and waits a second.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.api-key=sk-fake-key", "agentloop.llm.model=test-model",
        // the time-out covers a streamed reply to its end: 112 hostile replies streamed at once on a busy machine
        // take longer than a few seconds, and no test here is about a slow endpoint
        "agentloop.llm.timeout=PT30S", "agentloop.resilience.model-breaker.failure-threshold=5",
        "agentloop.resilience.model-breaker.failure-executions=10", "agentloop.resilience.model-breaker.delay=PT1S",
        // an engine of its own name: a second "default" would take /engine-rest and the webapps from the shared context
        "camunda.bpm.process-engine-name=" + ModelEndpointTest.ENGINE})
@ActiveProfiles("test")
class ModelEndpointTest {

  static final String ENGINE = "modelEndpoint";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FakeOpenAiServer SERVER = start();
  private static final AtomicBoolean DOWN = new AtomicBoolean();
  private static final Pattern FUZZ = Pattern.compile("^fuzz-(content|wire) (\\d+)");
  private static final int CONTENT_RUNS = 112;

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Breakers breakers;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @BeforeEach
  void endpointUp() {
    DOWN.set(false);
    breakers.model(endpoint()).close();
  }

  @Test
  void should_raise_an_incident_when_the_endpoint_is_down_and_go_on_where_it_was_when_an_operator_retries() {
    // given a run whose plan is made, and then the endpoint goes down
    DOWN.set(true);
    String run = runs.start(TestAgent.KEY, "outage: are you there?");

    // when retries and back-off are used up
    RunView failed = Runs.awaitStatus(runs, run, RunStatus.FAILED);

    // then the incident says why, the breaker spared the endpoint the later attempts, and nothing was written
    assertThat(failed.incident()).contains("openai:" + SERVER.baseUrl()).contains("HTTP 503");
    assertThat(thinkRequests("outage: are you there?")).isBetween(5L, 6L);
    assertThat(breaker()).isEqualTo("OPEN");
    assertThat(Runs.kinds(runs.trace(run, false))).containsExactly(StepKind.PLAN);

    // when the endpoint is back and an operator retries the step through the REST API, as Cockpit does
    DOWN.set(false);
    await().atMost(Runs.PATIENCE).until(() -> breakers.remainingDelay("model:" + endpoint()).isZero());
    String task = engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(run).singleResult().getId();
    HttpResponse<String> retried = ApiClient.as(port, "operator")
        .put("/engine-rest/engine/" + ENGINE + "/external-task/" + task + "/retries", "{\"retries\": 1}");
    assertThat(retried.statusCode()).as(retried.body()).isEqualTo(204);

    // then the run goes on from think, with its plan, and the breaker closes again
    RunView answered = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(answered.finalAnswer()).isEqualTo("the endpoint is back");
    assertThat(Runs.kinds(runs.trace(run, false))).containsExactly(StepKind.PLAN, StepKind.FINAL_ANSWER);
    assertThat(answered.modelCalls()).isEqualTo(2);
    assertThat(breaker()).isEqualTo("CLOSED");
  }

  @Test
  void should_end_hostile_replies_in_an_answer_or_an_error_observation_without_an_incident() throws IOException {
    // when the model's first reply of every run is hostile content in a well-formed completion
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < CONTENT_RUNS; i++) {
      ids.add(runs.start(TestAgent.KEY, "fuzz-content " + i));
    }

    // then every run ends: the interpreter and the act step turned each reply into steps the model read
    Map<String, Integer> outcomes = new TreeMap<>();
    for (String id : ids) {
      RunView view = Runs.awaitView(runs, id, v -> v.status() == RunStatus.ANSWERED || v.status() == RunStatus.FAILED);
      boolean observed = runs.trace(id, false).stream().anyMatch(step -> step.kind() == StepKind.OBSERVATION
          && step.json().has("error"));
      String outcome = view.status() == RunStatus.FAILED ? "incident: " + view.incident()
          : observed ? "answered after an error observation" : "answered at once";
      outcomes.merge(outcome, 1, Integer::sum);
    }
    report("content", outcomes);
    assertThat(outcomes.keySet()).allMatch(outcome -> outcome.startsWith("answered"));
    assertThat(outcomes).containsKeys("answered after an error observation", "answered at once");
  }

  @Test
  void should_end_garbage_on_the_wire_in_an_incident_that_names_the_endpoint_and_the_problem() throws IOException {
    Map<String, Integer> outcomes = new TreeMap<>();
    for (int i = 0; i < WIRE.size(); i++) {
      breakers.model(endpoint()).close();
      String run = runs.start(TestAgent.KEY, "fuzz-wire " + i);
      RunView view = Runs.awaitView(runs, run, v -> v.status() != RunStatus.RUNNING);
      if (view.status() == RunStatus.FAILED) {
        assertThat(view.incident()).as("wire reply %d", i).contains("openai:" + SERVER.baseUrl()).doesNotContain("sk-fake-key");
        outcomes.merge("incident", 1, Integer::sum);
      } else {
        outcomes.merge(view.status() + " " + view.waitingFor(), 1, Integer::sum);
      }
      String incident = view.incident() == null ? "" : view.incident();
      System.out.printf("wire reply %d: %s %s%n", i, view.status(), incident.length() > 160 ? incident.substring(0, 160) : incident);
    }
    report("wire", outcomes);
    assertThat(outcomes).containsKey("incident");
    assertThat(outcomes.keySet()).allMatch(outcome -> outcome.equals("incident") || outcome.startsWith("ANSWERED")
        || outcome.startsWith("WAITING [agentStuck]"));
  }

  // ---- the fake endpoint ----------------------------------------------------------------------------

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(ModelEndpointTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Plans at once; thinks by the question: the outage, hostile content then an answer, or garbage on the wire. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return ok(FakeOpenAiServer.textCompletion("[\"Answer the question\"]", 10, 5));
    }
    String question = messages.path(1).path("content").asText();
    if (question.startsWith("outage:")) {
      return DOWN.get() ? new Response(503, FakeOpenAiServer.errorBody("The server is overloaded", "server_error", null))
          : ok(FakeOpenAiServer.textCompletion("the endpoint is back", 10, 5));
    }
    Matcher fuzz = FUZZ.matcher(question);
    if (!fuzz.find()) {
      return ok(FakeOpenAiServer.textCompletion("no script for: " + question, 1, 1));
    }
    int n = Integer.parseInt(fuzz.group(2));
    if (fuzz.group(1).equals("wire")) {
      return WIRE.get(n % WIRE.size());
    }
    boolean secondTurn = false;
    for (JsonNode message : messages) {
      secondTurn |= message.path("role").asText().equals("tool")
          || message.path("content").asText().startsWith("[AgentLoop]");
    }
    return secondTurn ? ok(FakeOpenAiServer.textCompletion("recovered " + n, 10, 5)) : ok(hostileContent(n));
  }

  private static Response ok(String body) {
    return new Response(200, body);
  }

  /** Well-formed completions whose content a model should never send. */
  private static String hostileContent(int n) {
    String deep = "{\"a\":".repeat(1500) + "1" + "}".repeat(1500);
    return switch (n % 14) {
      case 0 -> FakeOpenAiServer.toolCallCompletion("c1", "teleport", "{\"to\": \"mars\"}", 1, 1);
      case 1 -> FakeOpenAiServer.toolCallCompletion("c1", "calculator", "{not json", 1, 1);
      case 2 -> FakeOpenAiServer.toolCallCompletion("c1", "calculator", "[1, 2, 3]", 1, 1);
      case 3 -> FakeOpenAiServer.toolCallCompletion("c1", "calculator", "{\"expression\": 42}", 1, 1);
      case 4 -> FakeOpenAiServer.textCompletion("x".repeat(30_000), 1, 1);
      case 5 -> completion(message -> message.putNull("content"));
      case 6 -> completion(message -> calls(message, 20, "calculator", "{\"expression\": \"1 + 1\"}"));
      case 7 -> FakeOpenAiServer.toolCallCompletion("c1", "", "{}", 1, 1);
      case 8 -> FakeOpenAiServer.toolCallCompletion("c1", "ca lc \u2713", "{}", 1, 1);
      case 9 -> FakeOpenAiServer.textCompletion("\u0000\u001b\ud83d answer \\u0000", 1, 1);
      case 10 -> FakeOpenAiServer.toolCallCompletion("c1", "ask_human",
          "{\"questions\": [\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"10\"]}", 1, 1);
      case 11 -> FakeOpenAiServer.toolCallCompletion("c1", "calculator", deep, 1, 1);
      case 12 -> completion(message -> calls(message, 2, "calculator", "{\"expression\": \"2 * 21\"}"));
      default -> FakeOpenAiServer.toolCallCompletion("c1", "calculator",
          "{\"expression\": \"" + "1".repeat(25_000) + "\"}", 1, 1);
    };
  }

  /** Garbage on the wire: not JSON, the wrong JSON, errors, a cut-off body. */
  private static final List<Response> WIRE = List.of(
      new Response(200, "this is not json"),
      new Response(200, "<html><body>502 Bad Gateway</body></html>"),
      new Response(200, "{}"),
      new Response(200, "{\"choices\": []}"),
      new Response(500, "garbage \u0000 from a proxy"),
      new Response(200, "{\"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"hi\","
          + " \"tool_calls\": \"not an array\"}, \"finish_reason\": \"stop\"}]}"),
      new Response(401, FakeOpenAiServer.errorBody("Incorrect API key provided: sk-fake-key", "invalid_request_error",
          "invalid_api_key")),
      new Response(200, FakeOpenAiServer.textCompletion("cut off", 1, 1).substring(0, 60)));

  private static String completion(java.util.function.Consumer<ObjectNode> message) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(FakeOpenAiServer.textCompletion("", 1, 1));
      message.accept((ObjectNode) root.at("/choices/0/message"));
      return root.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void calls(ObjectNode message, int count, String tool, String arguments) {
    message.putNull("content");
    ArrayNode calls = message.putArray("tool_calls");
    for (int i = 0; i < count; i++) {
      ObjectNode call = calls.addObject().put("id", "dup").put("type", "function");
      call.putObject("function").put("name", tool).put("arguments", arguments);
    }
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private String endpoint() {
    return "openai:" + SERVER.baseUrl();
  }

  private String breaker() {
    return breakers.find("model:" + endpoint()).orElseThrow().state();
  }

  private static long thinkRequests(String question) {
    return SERVER.requests().stream().map(Recorded::body)
        .filter(body -> body.path("messages").path(1).path("content").asText().equals(question))
        .filter(body -> !body.path("messages").path(0).path("content").asText().startsWith("Write a short plan"))
        .count();
  }

  private static void report(String kind, Map<String, Integer> outcomes) throws IOException {
    StringBuilder text = new StringBuilder("\n== Fuzz through the engine: hostile " + kind + " replies ==\n");
    outcomes.forEach((outcome, count) -> text.append(String.format("%-60s %4d%n",
        outcome.length() > 60 ? outcome.substring(0, 57) + "..." : outcome, count)));
    System.out.println(text);
    Path file = Path.of("target", "fuzz-report.txt");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text.toString(), java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }
}
