package dev.agentloop.internal.evaluation;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FinalAnswer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A recorded conversation replayed over the OpenAI wire (a local fake): the candidate is asked the recorded first
 * question and then the later ones, in the order people asked them, each answered from the recorded tool results.
 */
class RecordedFollowUpsTest extends ShopEvaluationContext {

  @BeforeAll
  static void model() {
    answerWith(RecordedFollowUpsTest::answer);
  }

  @Autowired StepStore steps;

  @Test
  void should_ask_the_candidate_the_conversations_later_questions_in_order() {
    ApiClient operator = operator();
    String agent = "shop-conversation-agent";
    TestAgent.deployVariant(engine, agent, conversation(agent, "You are a shop assistant."));
    String recorded = ApiClient.body(operator.post("/api/runs", JSON.createObjectNode().put("agent", agent)
        .put("question", "What do pears cost?").toString()), 201).path("id").asText();
    awaitFollowUp(operator, recorded, 1);
    ApiClient.body(operator.post("/api/runs/" + recorded + "/messages", "{\"question\": \"And apples?\"}"), 202);
    awaitFollowUp(operator, recorded, 2);
    ApiClient.body(operator.post("/api/runs/" + recorded + "/close", "{}"), 200);
    int lookups = EvaluationApiTest.LOOKUPS.get();

    ObjectNode request = EvaluationApiTest.request(Bpmn.convertToString(TestAgent.variant(agent,
        conversation(agent, "You are a shop assistant. Be kind."))), List.of(recorded));
    request.remove("judge");
    JsonNode report = EvaluationApiTest.awaitDone(operator, ApiClient.body(operator.post("/api/agents/" + agent
        + "/evaluations", request.toString()), 202).path("id").asText());

    JsonNode replayed = EvaluationApiTest.caseOf(report, recorded);
    assertThat(replayed.path("verdict").asText()).as(report.toString()).isEqualTo("SAME");
    List<String> answers = steps.activePath(replayed.at("/result/candidate/runId").asText()).stream()
        .map(Step::content).filter(FinalAnswer.class::isInstance).map(answer -> ((FinalAnswer) answer).text())
        .toList();
    assertThat(answers).containsExactly("The pears cost 2 EUR.", "The apples cost 3 EUR.");
    // both lookups came from the record, each for its own question
    assertThat(EvaluationApiTest.LOOKUPS.get()).isEqualTo(lookups);
  }

  private static void awaitFollowUp(ApiClient client, String run, int turns) {
    await().atMost(Runs.PATIENCE).until(() -> ApiClient.body(client.get("/api/runs/" + run), 200), view ->
        view.path("waitingFor").toString().contains("follow-up") && view.path("turns").size() == turns);
  }

  private static Map<String, String> conversation(String agent, String prompt) {
    Map<String, String> settings = new HashMap<>(EvaluationApiTest.settings(agent, prompt));
    settings.put(AgentSettings.CONVERSATION, "true");
    return settings;
  }

  /** Plans, looks up the item of the newest question once, and answers with the price the tool said. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return new Response(200, FakeOpenAiServer.textCompletion("1. Look it up. 2. Answer.", 10, 5));
    }
    String question = "";
    String observed = null;
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("user")) {
        question = message.path("content").asText();
        observed = null;
      } else if (message.path("role").asText().equals("tool")) {
        observed = message.path("content").asText();
      }
    }
    String item = question.contains("apples") ? "apples" : "pears";
    if (observed == null) {
      String arguments = "{\"item\": \"" + item + "\"}";
      return new Response(200, FakeOpenAiServer.toolCallCompletion("call_" + item, "price_lookup", arguments, 10, 5));
    }
    String price = observed.substring(observed.indexOf(':') + 1).strip();
    return new Response(200, FakeOpenAiServer.textCompletion("The " + item + " cost " + price + ".", 10, 5));
  }
}
