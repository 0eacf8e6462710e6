package dev.agentloop.internal.review;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.spin.json.SpinJsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The answer review of an agent with an answer schema: one field per property, pre-filled by its kind; a field the
 * reviewer changes is checked against the schema again and becomes a step of theirs; what breaks the schema is
 * refused with the validator's message and changes nothing. Also the answer schema a start gives.
 */
@AgentLoopTest
class AnswerFieldsReviewTest {

  private static final String AGENT = "fields-review-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired DecisionLog decisions;

  @BeforeEach
  void deploy() {
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.ANSWER_SCHEMA, AnswerSchemaRuns.SCHEMA));
  }

  @Test
  void should_show_one_field_per_property_prefilled_by_its_kind() {
    // when
    Task review = reviewOf(runs.start(AGENT, "fields: my kettle broke"));

    // then
    Map<String, Object> form = engine.getTaskService().getVariablesLocal(review.getId());
    assertThat(form).containsEntry("hasFields", true)
        .containsEntry("answerKind1", "choice").containsEntry("answerChoice1", "defect")
        .containsEntry("answerKind2", "choice").containsEntry("answerChoice2", "urgent")
        .containsEntry("answerKind3", "number").containsEntry("answerNumber3", 2L)
        .containsEntry("answerKind4", "text").containsEntry("answerText4", "We are sorry.")
        .containsEntry("answerKind5", null).containsEntry("answerLabel5", null);
    assertThat(form.get("answerLabel3")).isEqualTo("days — working days until the customer hears back");
    assertThat(form.get("answerOptions2").toString()).isEqualTo("[{\"label\":\"urgent\",\"value\":\"urgent\"},"
        + "{\"label\":\"normal\",\"value\":\"normal\"},{\"label\":\"low\",\"value\":\"low\"}]");
  }

  @Test
  void should_keep_a_changed_field_as_the_reviewers_step_and_hand_it_to_the_process() {
    // given
    String run = runs.start(AGENT, "fields: my kettle broke again");
    Task review = reviewOf(run);
    int answerStep = runs.view(run).steps();

    // when the reviewer lowers the priority and accepts
    Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept", "answerChoice2", "low",
        "answerChoice1", "defect", "answerNumber3", 2L, "answerText4", "We are sorry."));

    // then the run answered with the changed field, kept as the reviewer's step beside the model's
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.answerData().path("priority").asText()).isEqualTo("low");
    assertThat(view.answerData().path("category").asText()).isEqualTo("defect");
    Step edited = last(run, StepKind.FINAL_ANSWER);
    assertThat(edited.author()).isEqualTo("reviewer");
    assertThat(edited.reason()).isEqualTo("answer fields edited in answer review: priority");
    assertThat(edited.supersedes()).isEqualTo(answerStep);
    assertThat(AnswerSchemaRuns.variable(engine, run, "answer_priority")).isEqualTo("low");
    assertThat(((SpinJsonNode) AnswerSchemaRuns.variable(engine, run, ReactAgentProcess.ANSWER_DATA)).prop("priority")
        .stringValue()).isEqualTo("low");
    List<Decision> decided = decisions.of(run);
    assertThat(decided.get(decided.size() - 1).stepNo()).as("the acceptance is of the edited answer")
        .isEqualTo(edited.stepNo());
  }

  @Test
  void should_refuse_fields_that_break_the_schema_and_change_nothing() {
    // given
    String run = runs.start(AGENT, "fields: the lid is cracked");
    Task review = reviewOf(run);
    int steps = runs.view(run).steps();

    // then a number field that holds no number, and a fraction where the schema wants whole days, are refused
    assertThatThrownBy(() -> Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept",
        "answerNumber3", "soon"))).hasMessageContaining("field 'days' takes a whole number, not 'soon'");
    assertThatThrownBy(() -> Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept",
        "answerNumber3", 2.5))).hasMessageContaining("field 'days' takes a whole number, not '2.5'");
    // and an API client's whole answer without a required field, with the validator's message
    assertThatThrownBy(() -> Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept",
        AnswerFields.DATA, "{\"category\": \"defect\", \"priority\": \"low\", \"days\": 2}")))
        .hasMessageContaining("the answer's fields do not match the answer schema: required property 'reply' not found");
    assertThat(engine.getTaskService().createTaskQuery().taskId(review.getId()).count()).isOne();
    assertThat(runs.view(run).steps()).isEqualTo(steps);
  }

  @Test
  void should_refuse_changed_fields_with_a_decision_that_does_not_accept_the_answer() {
    // given
    String run = runs.start(AGENT, "fields: the parcel is late");
    Task review = reviewOf(run);

    // then
    assertThatThrownBy(() -> Runs.submitForm(engine, review, "reviewer", Map.of("decision", "regenerate",
        "regenerateReason", "try again", "answerChoice2", "low")))
        .hasMessageContaining("you changed the answer's fields (priority): accept the answer with them, or set them"
            + " back to regenerate it");
    assertThat(engine.getTaskService().createTaskQuery().taskId(review.getId()).count()).isOne();
  }

  @Test
  void should_answer_a_start_by_the_schema_it_gave_and_refuse_one_that_is_no_schema() {
    ApiClient api = ApiClient.as(port, "reviewer");

    // when a run of an agent without a schema is started with one
    JsonNode started = body(api.post("/api/runs", "{\"question\": \"fields: by the caller's schema\", \"agent\": \""
        + TestAgent.KEY + "\", \"answerSchema\": " + AnswerSchemaRuns.SCHEMA + "}"), 201);
    RunView view = Runs.awaitStatus(runs, started.get("id").asText(), RunStatus.ANSWERED);

    // then it answered in fields, which the API shows
    assertThat(view.answerData().path("category").asText()).isEqualTo("defect");
    JsonNode read = body(api.get("/api/runs/" + view.id()), 200);
    assertThat(read.at("/answerData/days").asInt()).isEqualTo(2);
    assertThat(read.at("/turns/0/answerData/priority").asText()).isEqualTo("urgent");

    // and a schema that is none is refused before anything starts
    long before = engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionKey(TestAgent.KEY)
        .count();
    assertProblem(api.post("/api/runs", "{\"question\": \"fields: never\", \"agent\": \"" + TestAgent.KEY + "\","
        + " \"answerSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"strng\"}}}}"), 400,
        "parameter 'answerSchema' is '{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"strng\"}}}' but must be a JSON"
            + " Schema of an object with properties (not a valid JSON Schema: /properties/a/type:");
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionKey(TestAgent.KEY)
        .count()).isEqualTo(before);
  }

  @Test
  void should_refuse_a_start_whose_process_passes_no_schema_as_the_answer_schema() {
    // when a process (or any caller of the engine) starts an agent with an answer schema that is none
    assertThatThrownBy(() -> engine.getRuntimeService().startProcessInstanceByKey(AGENT, Map.of(
        ReactAgentProcess.QUESTION.name(), "fields: from a process", ReactAgentProcess.ANSWER_SCHEMA, "[1, 2]")))
        .hasMessageContaining("the variable 'answerSchema' of an agent run's start is not an answer schema: a JSON"
            + " Schema is a JSON object");
  }

  private Task reviewOf(String run) {
    return Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
  }

  private Step last(String run, StepKind kind) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == kind).reduce((a, b) -> b).orElseThrow();
  }
}
