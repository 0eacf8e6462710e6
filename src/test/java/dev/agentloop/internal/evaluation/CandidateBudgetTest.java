package dev.agentloop.internal.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;

/**
 * A candidate with a budget, over the OpenAI wire (a local fake): its run is held to its own diagram's budget however
 * the recorded run went; where it runs out, the evaluation stops it (the recorded run never got stuck there), the case
 * says so and fails; and what the judge's calls used is the evaluation's own cost, counted apart from both sides.
 */
class CandidateBudgetTest extends ShopEvaluationContext {


  @Test
  void should_hold_the_candidate_to_its_budget_and_count_the_judge_apart() {
    ApiClient operator = operator();
    String agent = "shop-budget-agent";
    TestAgent.deployVariant(engine, agent, withModelCalls(agent, 5));
    String pears = EvaluationApiTest.record(operator, agent, "What do pears cost?");
    String apples = EvaluationApiTest.record(operator, agent, "What do apples cost?");
    String tight = Bpmn.convertToString(TestAgent.variant(agent, withModelCalls(agent, 2)));

    JsonNode report = EvaluationApiTest.awaitDone(operator, ApiClient.body(operator.post("/api/agents/" + agent
        + "/evaluations", EvaluationApiTest.request(tight, List.of(pears, apples)).toString()), 202)
        .path("id").asText());

    for (String run : List.of(pears, apples)) {
      JsonNode held = EvaluationApiTest.caseOf(report, run);
      assertThat(held.at("/result/recorded/modelCalls").asInt()).isEqualTo(3);
      assertThat(held.at("/result/candidate/modelCalls").asInt()).as(report.toString()).isEqualTo(2);
      assertThat(held.at("/result/candidate/outcome").asText()).isEqualTo("STOPPED");
      assertThat(held.at("/result/marks").toString()).contains("stuck where the recorded run was not: stopped");
      assertThat(held.path("verdict").asText()).isEqualTo("FAILED");
      assertThat(EvaluationApiTest.check(held, "outcome").path("passed").asBoolean()).isFalse();
    }
    // the candidate's model calls are its runs' only; the judge's are the evaluation's own, counted apart
    assertThat(report.at("/summary/candidate/modelCalls").asInt()).isEqualTo(4);
    assertThat(report.at("/summary/recorded/modelCalls").asInt()).isEqualTo(6);
    int judged = report.at("/summary/judge/calls").asInt();
    assertThat(judged).isEqualTo(EvaluationApiTest.caseOf(report, pears).at("/result/judge/calls").asInt()
        + EvaluationApiTest.caseOf(report, apples).at("/result/judge/calls").asInt());
  }

  private static Map<String, String> withModelCalls(String agent, int calls) {
    Map<String, String> settings = new HashMap<>(EvaluationApiTest.settings(agent, "You are a shop assistant."));
    settings.put(AgentSettings.MAX_MODEL_CALLS, String.valueOf(calls));
    return settings;
  }
}
