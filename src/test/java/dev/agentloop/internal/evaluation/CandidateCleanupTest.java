package dev.agentloop.internal.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.ApiClient;
import dev.agentloop.internal.agent.EvaluationKeys;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What an evaluation deployed goes when nothing needs it, with the real engine, H2 and the model on the OpenAI wire (a
 * local fake): the candidate's deployment when its evaluation ends, while the evaluation stays readable; in the sweep,
 * a candidate whose evaluation is gone (not one whose evaluation is just starting), but never one whose run is still
 * under way (nothing of it is touched); and the
 * evaluations past the retention (the default, 90 days), but never a promoted one.
 */
class CandidateCleanupTest extends ShopEvaluationContext {

  @Autowired CandidateCleanup cleanup;
  @Autowired EvaluationStore store;

  @AfterEach
  void realTime() {
    ClockUtil.reset();
  }

  @Test
  void should_remove_the_candidate_when_its_evaluation_ends_and_keep_the_evaluation_readable() {
    ApiClient operator = operator();
    String agent = "shop-cleanup-agent";
    EvaluationApiTest.deployAgent(engine, agent);
    String run = EvaluationApiTest.record(operator, agent, "What do pears cost?");
    long candidates = EvaluationApiTest.candidateDefinitions(engine);

    String id = ApiClient.body(operator.post("/api/agents/" + agent + "/evaluations",
        EvaluationApiTest.request(EvaluationApiTest.candidate(agent, "Be kind."), List.of(run)).toString()), 202)
        .path("id").asText();
    JsonNode report = EvaluationApiTest.awaitDone(operator, id);

    assertThat(EvaluationApiTest.candidateDefinitions(engine)).isEqualTo(candidates);
    // what the evaluation found is its own: read as it ended, and the agent's runs untouched
    JsonNode again = ApiClient.body(operator.get("/api/evaluations/" + id), 200);
    assertThat(again.path("cases")).isEqualTo(report.path("cases"));
    assertThat(again.at("/cases/0/result/candidate/answer").asText()).isEqualTo("The pears cost 2 EUR.");
    assertThat(ApiClient.body(operator.get("/api/runs/" + run), 200).path("status").asText()).isEqualTo("ANSWERED");
    // the list of the agent's evaluations says what it came to
    assertThat(ApiClient.body(operator.get("/api/agents/" + agent + "/evaluations"), 200).at("/0/summary/same")
        .asInt()).isEqualTo(1);
    // and the promotion deploys the diagram the evaluation keeps, not the candidate's deployment that went
    assertThat(store.candidateXml(id)).contains("Be kind.");
  }

  @Test
  void should_sweep_a_candidate_whose_evaluation_is_gone_but_never_one_whose_run_is_under_way() {
    String left = EvaluationKeys.of(UUID.randomUUID().toString());
    String busy = EvaluationKeys.of(UUID.randomUUID().toString());
    deployCandidate(left);
    deployCandidate(busy);
    ProcessInstance running = engine.getRuntimeService().startProcessInstanceByKey(busy);

    // a candidate without a row yet may be an evaluation that is starting: left alone for a while
    cleanup.sweep();
    assertThat(definitions(left)).isEqualTo(1);

    ClockUtil.setCurrentTime(Date.from(ClockUtil.getCurrentTime().toInstant().plus(Duration.ofMinutes(11))));
    cleanup.sweep();
    assertThat(definitions(left)).isZero();
    // refused by the engine, not cascaded: the run goes on, and the next sweep tries again
    assertThat(definitions(busy)).isEqualTo(1);
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(running.getId()).count())
        .isEqualTo(1);
    engine.getRuntimeService().deleteProcessInstance(running.getId(), "the test is done with it");
    cleanup.sweep();
    assertThat(definitions(busy)).isZero();
  }

  @Test
  void should_remove_evaluations_past_the_retention_but_keep_a_promoted_one() {
    ApiClient operator = operator();
    String agent = "shop-retention-agent";
    EvaluationApiTest.deployAgent(engine, agent);
    String run = EvaluationApiTest.record(operator, agent, "What do pears cost?");
    String path = "/api/agents/" + agent + "/evaluations";
    String body = EvaluationApiTest.request(EvaluationApiTest.candidate(agent, "Be kind."), List.of(run)).toString();
    String old = ApiClient.body(operator.post(path, body), 202).path("id").asText();
    String promoted = ApiClient.body(operator.post(path, body), 202).path("id").asText();
    EvaluationApiTest.awaitDone(operator, old);
    EvaluationApiTest.awaitDone(operator, promoted);
    // as a promotion writes it (promoting itself is EvaluationApiTest's)
    assertThat(store.promoted(promoted, "analyst", "kinder", 2)).isTrue();

    ClockUtil.setCurrentTime(Date.from(ClockUtil.getCurrentTime().toInstant().plus(Duration.ofDays(89))));
    cleanup.sweep();
    ApiClient.body(operator.get("/api/evaluations/" + old), 200);

    ClockUtil.setCurrentTime(Date.from(ClockUtil.getCurrentTime().toInstant().plus(Duration.ofDays(2))));
    cleanup.sweep();
    ApiClient.assertProblem(operator.get("/api/evaluations/" + old), 404, "no evaluation");
    assertThat(ApiClient.body(operator.get("/api/evaluations/" + promoted), 200).at("/promotion/by").asText())
        .isEqualTo("analyst");
    assertThat(store.cases(old)).isEmpty();
  }

  private void deployCandidate(String key) {
    engine.getRepositoryService().createDeployment().name(key).source(CandidateDeployments.SOURCE)
        .addModelInstance(key + ".bpmn", Bpmn.createExecutableProcess(key).startEvent().userTask("wait").endEvent()
            .done())
        .deploy();
  }

  private long definitions(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count();
  }
}
