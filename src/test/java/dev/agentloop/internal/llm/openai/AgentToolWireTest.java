package dev.agentloop.internal.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Observation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An agent as a tool on the OpenAI wire, through the engine and a local fake of the endpoint: the coordinator's
 * model is offered the child agent as a function with a JSON schema of one argument, {@code question}; its call runs
 * the child as a run of its own, whose model call gets the question, and the child's answer comes back to the
 * coordinator's model as the tool message of that call.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "camunda.bpm.process-engine-name=agentToolWire"})
@ActiveProfiles("test")
class AgentToolWireTest {

  private static final String CHILD = "wire-child-agent";
  private static final String COORDINATOR = "wire-coordinator-agent";
  private static final String CHILD_QUESTION = "How many legs does a spider have?";
  private static final FakeOpenAiServer SERVER = start();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_offer_the_child_agent_as_a_function_and_return_its_answer_as_the_tool_message() {
    TestAgent.deployVariant(engine, CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));

    String run = runs.start(COORDINATOR, "Ask the other agent about spiders.");

    await().atMost(Runs.PATIENCE).until(() -> store.run(run).status().isFinished());
    assertThat(runs.view(run).finalAnswer()).isEqualTo("The other agent says: Eight.");
    // the coordinator's think call offered the child as a function with its one argument
    JsonNode offered = SERVER.requests().stream().map(Recorded::body).map(AgentToolWireTest::childFunction)
        .filter(function -> !function.isMissingNode()).findFirst().orElseThrow();
    assertThat(offered.path("description").asText()).isNotBlank();
    assertThat(offered.at("/parameters/type").asText()).isEqualTo("object");
    assertThat(offered.at("/parameters/properties/question/type").asText()).isEqualTo("string");
    assertThat(offered.at("/parameters/required/0").asText()).isEqualTo("question");
    // the child ran with the model's question, and its model call got it as the user's question
    Observation observed = store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> step.contentAs(Observation.class)).findFirst().orElseThrow();
    assertThat(store.run(observed.childRun()).question()).isEqualTo(CHILD_QUESTION);
    assertThat(SERVER.requests()).anySatisfy(request -> assertThat(lastUserText(request.body()))
        .isEqualTo(CHILD_QUESTION));
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(AgentToolWireTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Plans in one step. The coordinator (offered the child) calls it, then answers with the tool message it got
   * back; the child answers at once.
   */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return new Response(200, FakeOpenAiServer.textCompletion("1. Ask", 10, 5));
    }
    if (childFunction(request.body()).isMissingNode()) {
      return new Response(200, FakeOpenAiServer.textCompletion("Eight.", 10, 5));
    }
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("tool")) {
        return new Response(200, FakeOpenAiServer.textCompletion("The other agent says: "
            + message.path("content").asText(), 10, 5));
      }
    }
    return new Response(200, FakeOpenAiServer.toolCallCompletion("call_1", CHILD,
        "{\"question\": \"" + CHILD_QUESTION + "\"}", 10, 5));
  }

  private static JsonNode childFunction(JsonNode body) {
    return StreamSupport.stream(body.path("tools").spliterator(), false).map(tool -> tool.path("function"))
        .filter(function -> function.path("name").asText().equals(CHILD)).findFirst()
        .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
  }

  private static String lastUserText(JsonNode body) {
    String last = "";
    for (JsonNode message : body.path("messages")) {
      if (message.path("role").asText().equals("user")) {
        last = message.path("content").asText();
      }
    }
    return last;
  }
}
