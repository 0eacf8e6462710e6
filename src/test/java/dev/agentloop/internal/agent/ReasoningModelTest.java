package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A reasoning model on the OpenAI wire, through the engine: its {@code <think>} blocks and its
 * {@code reasoning_content} are kept in the steps' {@code reasoning} field and never reach the plan,
 * a thought sent back to it, the final answer or the answer a reviewer accepts.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=qwen3", "agentloop.llm.timeout=PT5S",
        "camunda.bpm.process-engine-name=reasoningModel"})
@ActiveProfiles("test")
class ReasoningModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FakeOpenAiServer SERVER = start();
  private static final String PLAN_REASONING = "SECRET-PLAN-REASONING the user wants a product";
  private static final String CALL_REASONING = "SECRET-CALL-REASONING I should use the calculator";
  private static final String ANSWER_REASONING = "SECRET-ANSWER-REASONING 391 it is";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_keep_reasoning_out_of_plan_thought_answer_and_answer_review() throws IOException {
    // given a run of an agent whose plan and answer are reviewed, on a model that reasons aloud
    String run = runs.start(TestAgent.REVIEWED, "reasoning: what is 17 * 23?");

    // then the plan a reviewer sees is the plan alone, its reasoning kept beside it
    Task planReview = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    assertThat(local(planReview, "plan")).isEqualTo("Multiply 17 by 23\nAnswer with the product");
    Step plan = step(run, StepKind.PLAN);
    assertThat(plan.json().path("steps").toString()).doesNotContain("SECRET");
    assertThat(plan.text("reasoning")).isEqualTo(PLAN_REASONING);
    complete(planReview, Map.of("decision", "accept"));

    // then the answer a reviewer accepts is the answer alone, and so are the steps shown with it
    Task answerReview = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(local(answerReview, "answer")).isEqualTo("17 * 23 = 391");
    assertThat(local(answerReview, "steps")).doesNotContain("SECRET");
    complete(answerReview, Map.of("decision", "accept"));
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("17 * 23 = 391");

    // and every step keeps its reasoning apart: the thought of the tool call and the answer
    Step thought = step(run, StepKind.THOUGHT);
    assertThat(thought.text("text")).isEqualTo("I multiply.");
    assertThat(thought.text("reasoning")).isEqualTo(CALL_REASONING);
    Step answer = step(run, StepKind.FINAL_ANSWER);
    assertThat(answer.text("text")).isEqualTo("17 * 23 = 391");
    assertThat(answer.text("reasoning")).isEqualTo(ANSWER_REASONING);

    // and the model never got its reasoning back
    List<Recorded> requests = SERVER.requests().stream()
        .filter(request -> request.body().toString().contains("reasoning: what is 17 * 23?")).toList();
    assertThat(requests).hasSize(3);
    assertThat(requests).allSatisfy(request -> assertThat(request.body().toString()).doesNotContain("SECRET"));

    // and the trace API shows the reasoning as a field of its own
    JsonNode trace = ApiClient.body(ApiClient.as(port, "reviewer").get("/api/runs/" + run + "/trace"), 200);
    assertThat(trace.findValuesAsText("reasoning")).containsExactly(PLAN_REASONING, CALL_REASONING, ANSWER_REASONING);
  }

  // ---- the fake reasoning model ------------------------------------------------------------------

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(ReasoningModelTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Plans with a think block, calls the calculator with DeepSeek's reasoning_content, answers with a think block. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return ok(FakeOpenAiServer.textCompletion("<think>\n" + PLAN_REASONING + "\n</think>\n\n"
          + "1. Multiply 17 by 23\n2. Answer with the product", 10, 5));
    }
    boolean observed = false;
    for (JsonNode message : messages) {
      observed |= message.path("role").asText().equals("tool");
    }
    if (observed) {
      return ok(FakeOpenAiServer.textCompletion("<think>\n" + ANSWER_REASONING + "\n</think>\n\n17 * 23 = 391", 10, 5));
    }
    return ok(completion(message -> {
      message.put("content", "I multiply.").put("reasoning_content", CALL_REASONING);
      message.putArray("tool_calls").addObject().put("id", "call_1").put("type", "function")
          .putObject("function").put("name", "calculator").put("arguments", "{\"expression\": \"17 * 23\"}");
    }));
  }

  private static Response ok(String body) {
    return new Response(200, body);
  }

  private static String completion(java.util.function.Consumer<ObjectNode> message) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(FakeOpenAiServer.textCompletion("", 10, 5));
      message.accept((ObjectNode) root.at("/choices/0/message"));
      return root.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private void complete(Task task, Map<String, Object> fields) {
    Runs.submitForm(engine, task, "ann", fields);
  }

  private String local(Task task, String name) {
    return String.valueOf(engine.getTaskService().getVariableLocal(task.getId(), name));
  }

  private Step step(String run, StepKind kind) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == kind).reduce((a, b) -> b).orElseThrow();
  }
}
