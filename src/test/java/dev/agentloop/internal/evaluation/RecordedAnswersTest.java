package dev.agentloop.internal.evaluation;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A recorded run that asked a person twice and had a call with side effects approved, replayed over the OpenAI wire
 * (a local fake): the candidate's questions get the person's answers in the order they were given, its call is
 * approved as it was (and answered from the record: the credit never runs again), and nobody is asked anew.
 */
class RecordedAnswersTest extends ShopEvaluationContext {

  @BeforeAll
  static void model() {
    answerWith(RecordedAnswersTest::answer);
  }


  @Test
  void should_answer_the_candidates_questions_in_order_and_its_approval_as_recorded() {
    ApiClient operator = operator();
    String agent = "shop-asking-agent";
    TestAgent.deployVariant(engine, agent, asking(agent, "You are a shop assistant."));
    String recorded = ApiClient.body(operator.post("/api/runs", JSON.createObjectNode().put("agent", agent)
        .put("question", "Credit my shirt.").toString()), 201).path("id").asText();
    Runs.submitForm(engine, Runs.awaitTask(engine, recorded, ReactAgentProcess.ASK_HUMAN), "ann",
        Map.of("answer1", "blue"));
    Runs.submitForm(engine, Runs.awaitTask(engine, recorded, ReactAgentProcess.ASK_HUMAN), "ann",
        Map.of("answer1", "size-M"));
    Runs.submitForm(engine, Runs.awaitTask(engine, recorded, ReactAgentProcess.APPROVE_ACTION), "ann",
        Map.of("decision1", "approve"));
    await().atMost(Runs.PATIENCE).until(() -> ApiClient.body(operator.get("/api/runs/" + recorded), 200)
        .path("status").asText().equals("ANSWERED"));
    String recordedAnswer = ApiClient.body(operator.get("/api/runs/" + recorded), 200).path("finalAnswer").asText();
    assertThat(recordedAnswer.indexOf("blue")).isNotNegative().isLessThan(recordedAnswer.indexOf("size-M"));
    int credits = EvaluationApiTest.CREDITS.get();

    ObjectNode request = EvaluationApiTest.request(Bpmn.convertToString(TestAgent.variant(agent,
        asking(agent, "You are a shop assistant. Be kind."))), List.of(recorded));
    request.remove("judge");
    JsonNode report = EvaluationApiTest.awaitDone(operator, ApiClient.body(operator.post("/api/agents/" + agent
        + "/evaluations", request.toString()), 202).path("id").asText());

    JsonNode replayed = EvaluationApiTest.caseOf(report, recorded);
    assertThat(replayed.at("/result/candidate/answer").asText()).as(report.toString()).isEqualTo(recordedAnswer);
    assertThat(replayed.path("verdict").asText()).isEqualTo("SAME");
    assertThat(replayed.at("/result/marks").toString()).doesNotContain("asked anew");
    assertThat(EvaluationApiTest.CREDITS.get()).isEqualTo(credits);
  }

  private static Map<String, String> asking(String agent, String prompt) {
    Map<String, String> settings = new HashMap<>(EvaluationApiTest.settings(agent, prompt));
    settings.put(AgentSettings.ALLOWED_TOOLS, "ask_human, issue_credit");
    return settings;
  }

  /** Plans, asks a person for the colour and then the size, credits order 42, and answers with what it was told. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return new Response(200, FakeOpenAiServer.textCompletion("1. Ask. 2. Credit. 3. Answer.", 10, 5));
    }
    List<String> observed = new ArrayList<>();
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("tool")) {
        observed.add(message.path("content").asText());
      }
    }
    return new Response(200, switch (observed.size()) {
      case 0 -> FakeOpenAiServer.toolCallCompletion("call_colour", "ask_human",
          "{\"questions\": [\"Which colour?\"]}", 10, 5);
      case 1 -> FakeOpenAiServer.toolCallCompletion("call_size", "ask_human",
          "{\"questions\": [\"Which size?\"]}", 10, 5);
      case 2 -> FakeOpenAiServer.toolCallCompletion("call_credit", "issue_credit", "{\"order\": 42}", 10, 5);
      default -> FakeOpenAiServer.textCompletion("Told: " + String.join(" / ", observed), 10, 5);
    });
  }
}
