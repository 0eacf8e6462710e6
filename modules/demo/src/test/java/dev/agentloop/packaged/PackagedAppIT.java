package dev.agentloop.packaged;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.cluster.AppNode;
import dev.agentloop.cluster.NodeApi;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged app as users run it: {@code java -jar} of the executable jar that {@code mvn package}
 * built (its path comes from the system property {@code agentloop.jar}, set by the pom), with the
 * OpenAI-compatible provider against a local fake of the OpenAI wire. Nested jars load through Spring
 * Boot's class loader there, not the system class loader the tests' class path uses: a thread that
 * runs engine work with the wrong context class loader breaks expression evaluation for the whole
 * JVM ({@code ELException: Provider com.sun.el.ExpressionFactoryImpl not found}), which no test on
 * {@code target/classes} can see.
 *
 * <p>One run goes through every gateway of the diagram: the plan accepted automatically,
 * {@code resumeAt}, {@code think} with a tool call, {@code act}, {@code think} with an answer, the
 * answer review sent back with feedback and then accepted, the review's form and task handled over
 * the engine REST API as Tasklist does.
 */
class PackagedAppIT {

  private static final String AGENT = "packaged-agent";
  private static final String FEEDBACK = "Say the number in words too.";
  /** Starting the app and waiting for a run on a busy 2-core machine: generous, not a timing assertion. */
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  /** Away from the repository's root, as a user who copied the jar runs it. */
  static final Path WORKING_DIRECTORY = Path.of("target", "packaged-app", UUID.randomUUID().toString());

  static FakeOpenAiServer model;
  static AppNode app;

  @BeforeAll
  static void startTheJar() throws IOException {
    model = new FakeOpenAiServer().answerWith(PackagedAppIT::reply);
    // the log of an earlier run of this test must not fail this one
    Files.deleteIfExists(Path.of("target", "nodes", "packaged-app.log"));
    app = AppNode.named("packaged-app")
        .jar(Path.of(System.getProperty("agentloop.jar", "target/agentloop.jar")))
        .workingDirectory(WORKING_DIRECTORY)
        .property("agentloop.llm.provider", "openai")
        .property("agentloop.llm.base-url", model.baseUrl())
        .property("agentloop.llm.model", "test-model")
        .environment("AGENTLOOP_LLM_API_KEY", "sk-packaged-test")
        .property("spring.main.banner-mode", "off")
        .start();
    app.api().deploy(AGENT + ".bpmn", Bpmn.convertToString(TestAgent.variant(AGENT,
        Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "false",
            AgentSettings.CONVERSATION, "false"))));
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (model != null) {
      model.close();
    }
  }

  @Test
  void should_take_a_run_through_every_gateway_to_its_answer_in_the_packaged_app() {
    NodeApi api = app.api();

    // when a run starts: plan (accepted automatically), think → calculator → think → answer
    String run = api.start(AGENT, "What is 6 times 7?");

    // then it waits for a person to review its answer, which came after the tool call
    JsonNode review = awaitTask(api, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(api.get("/engine-rest/task/" + review.get("id").asText() + "/deployed-form").findValuesAsText("key"))
        .as("the Camunda Form Tasklist renders").contains("answer", "decision", "feedback");
    JsonNode form = api.get("/engine-rest/task/" + review.get("id").asText() + "/form-variables");
    assertThat(form.at("/answer/value").asText()).isEqualTo("6 × 7 = 42");

    // when the reviewer sends it back with feedback, as Tasklist submits the form
    submit(api, review, "{\"decision\": {\"value\": \"feedback\"}, \"feedback\": {\"value\": \"" + FEEDBACK + "\"}}");

    // then the agent thinks again with the feedback and answers anew
    JsonNode second = awaitTask(api, run, ReactAgentProcess.REVIEW_ANSWER, review.get("id").asText());
    assertThat(api.get("/engine-rest/task/" + second.get("id").asText() + "/form-variables")
        .at("/answer/value").asText()).isEqualTo("Forty-two (6 × 7 = 42).");

    // when the reviewer accepts it
    submit(api, second, "{\"decision\": {\"value\": \"accept\"}}");

    // then the run is answered, with no incident, and the model was asked exactly as often as the run needed
    awaitStatus(api, run, "ANSWERED");
    JsonNode view = api.run(run);
    assertThat(view.get("finalAnswer").asText()).isEqualTo("Forty-two (6 × 7 = 42).");
    assertThat(view.get("toolCalls").asInt()).isEqualTo(1);
    assertThat(api.get("/engine-rest/incident/count?processInstanceId=" + run).get("count").asInt()).isZero();
    assertThat(model.requests()).hasSize(4);
    assertThat(expressionFailures()).isEmpty();
  }

  @Test
  void should_say_where_it_looked_for_its_documents_when_started_away_from_them() throws IOException {
    // the jar runs in a directory of its own, without the repository's ./documents
    Path folder = WORKING_DIRECTORY.resolve("documents").toAbsolutePath().normalize();

    assertThat(Files.readAllLines(app.log())).anySatisfy(line -> assertThat(line)
        .contains("read_document's folder " + folder + " does not exist (agentloop.tools.read-document.folder,"
            + " relative to the directory the application started in): its calls fail until it does"));
  }

  /** The fake model: a plan, then a calculator call, then an answer; with the reviewer's feedback, a new answer. */
  private static Response reply(Recorded request) {
    JsonNode messages = request.body().path("messages");
    JsonNode last = messages.get(messages.size() - 1);
    if (messages.get(0).path("content").asText().contains("plan")
        && !request.body().has("tools")) {
      return ok(FakeOpenAiServer.textCompletion("[\"Compute 6 * 7 with the calculator\", \"Answer with the result\"]",
          40, 12));
    }
    if ("tool".equals(last.path("role").asText())) {
      return ok(FakeOpenAiServer.textCompletion("6 × 7 = 42", 80, 8));
    }
    if (last.path("content").asText().contains(FEEDBACK)) {
      return ok(FakeOpenAiServer.textCompletion("Forty-two (6 × 7 = 42).", 90, 9));
    }
    return ok(FakeOpenAiServer.toolCallCompletion("call_1", "calculator", "{\"expression\": \"6 * 7\"}", 60, 10));
  }

  private static Response ok(String body) {
    return new Response(200, body);
  }

  private static JsonNode awaitTask(NodeApi api, String run, String taskKey, String... notThese) {
    List<String> seen = List.of(notThese);
    return awaitRun(api, run, () -> {
      for (JsonNode task : api.get("/engine-rest/task?processInstanceId=" + run + "&taskDefinitionKey=" + taskKey)) {
        if (!seen.contains(task.get("id").asText())) {
          return task;
        }
      }
      return null;
    });
  }

  private static void awaitStatus(NodeApi api, String run, String status) {
    awaitRun(api, run, () -> status.equals(api.run(run).get("status").asText()) ? Boolean.TRUE : null);
  }

  /**
   * Waits for what {@code probe} finds; fails at once, with the log line, once the app logged a
   * broken expression engine: the run would only be retried after its lock expires, minutes later.
   */
  private static <T> T awaitRun(NodeApi api, String run, java.util.concurrent.Callable<T> probe) {
    return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
      List<String> failures = expressionFailures();
      if (!failures.isEmpty()) {
        throw new AssertionError("the packaged app cannot evaluate expressions; run " + run + " is "
            + api.run(run).get("status").asText() + "; see " + app.log() + ":\n" + String.join("\n", failures));
      }
      return probe.call();
    }, found -> found != null);
  }

  /** As a reviewer in Tasklist: claim the task, then submit its form. */
  private static void submit(NodeApi api, JsonNode task, String variables) {
    api.post("/engine-rest/task/" + task.get("id").asText() + "/claim", "{\"userId\": \"demo\"}");
    api.post("/engine-rest/task/" + task.get("id").asText() + "/submit-form", "{\"variables\": " + variables + "}");
  }

  private static List<String> expressionFailures() {
    try {
      return Files.readAllLines(app.log()).stream()
          .filter(line -> line.contains("ELException") || line.contains("Could not initialize class"))
          .limit(5)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
