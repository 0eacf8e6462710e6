package dev.agentloop.internal.evaluation;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Plan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A recorded run whose plan a person edited, replayed over the OpenAI wire (a local fake): the candidate's plan review
 * is answered as the person answered it, with the person's plan, and nobody is asked anew.
 */
class RecordedPlanReviewTest extends ShopEvaluationContext {

  private static final String EDITED = "Look the pears up in the price list\nAnswer in one line";

  @Autowired StepStore steps;

  @Test
  void should_answer_the_candidates_plan_review_with_the_plan_the_person_edited() {
    ApiClient operator = operator();
    String agent = "shop-reviewed-agent";
    TestAgent.deployVariant(engine, agent, reviewedPlans(agent, "You are a shop assistant."));
    String recorded = ApiClient.body(operator.post("/api/runs", JSON.createObjectNode().put("agent", agent)
        .put("question", "What do pears cost?").toString()), 201).path("id").asText();
    Runs.submitForm(engine, Runs.awaitTask(engine, recorded, ReactAgentProcess.REVIEW_PLAN), "ann",
        Map.of("decision", "accept", "plan", EDITED));
    await().atMost(Runs.PATIENCE).until(() -> ApiClient.body(operator.get("/api/runs/" + recorded), 200)
        .path("status").asText().equals("ANSWERED"));

    String candidate = Bpmn.convertToString(TestAgent.variant(agent, reviewedPlans(agent,
        "You are a shop assistant. Be kind.")));
    JsonNode report = EvaluationApiTest.awaitDone(operator, ApiClient.body(operator.post("/api/agents/" + agent
        + "/evaluations", EvaluationApiTest.request(candidate, List.of(recorded)).toString()), 202).path("id").asText());

    JsonNode replayed = EvaluationApiTest.caseOf(report, recorded);
    assertThat(replayed.path("verdict").asText()).as(report.toString()).isIn("SAME", "CHANGED");
    assertThat(replayed.at("/result/marks").toString()).doesNotContain("asked anew");
    // the model proposed its own plan; the review took the person's, as in the recorded run
    List<String> plans = steps.activePath(replayed.at("/result/candidate/runId").asText()).stream()
        .map(Step::content).filter(Plan.class::isInstance).map(plan -> String.join("\n", ((Plan) plan).steps()))
        .toList();
    assertThat(plans).last().isEqualTo(EDITED);
  }

  private static Map<String, String> reviewedPlans(String agent, String prompt) {
    Map<String, String> settings = new HashMap<>(EvaluationApiTest.settings(agent, prompt));
    settings.put(AgentSettings.AUTO_ACCEPT_PLAN, "false");
    return settings;
  }
}
