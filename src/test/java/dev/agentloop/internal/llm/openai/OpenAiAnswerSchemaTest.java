package dev.agentloop.internal.llm.openai;

import static dev.agentloop.internal.llm.AnswerSchemaRuns.VALID;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.escapeReason;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.settled;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.variable;
import static dev.agentloop.internal.llm.openai.FakeOpenAiServer.textCompletion;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.spin.json.SpinJsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An agent with an answer schema on the OpenAI wire, through the engine and a local fake of the endpoint: the
 * request carries the schema as {@code response_format} ({@code json_schema}, strict, since the schema allows it),
 * and each kind of answer ends as it must — valid fields, fields in prose or a fence, a wrong type repaired, a
 * missing field every time, a cut reply, a filtered reply, a refusal.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=triage-model", "agentloop.llm.timeout=PT30S",
        // a context of its own: the engine named "default" (behind /engine-rest) stays the shared test context's
        "camunda.bpm.process-engine-name=openAiAnswers"})
@ActiveProfiles("test")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenAiAnswerSchemaTest {

  private static final String AGENT = "openai-triage";
  private static final AnswerSchemaRuns REPLIES = new AnswerSchemaRuns();
  private static final FakeOpenAiServer SERVER = start();
  private static final String PLAN = textCompletion("[\"Triage the ticket\"]", 20, 5);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @BeforeAll
  void deploy() {
    AnswerSchemaRuns.deploy(engine, AGENT);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_send_the_schema_as_a_strict_json_schema_response_format_and_hand_valid_fields_to_the_process() {
    // given
    REPLIES.queue("[valid]", PLAN, textCompletion(VALID, 300, 40));

    // when
    String run = runs.start(AGENT, "[valid] My kettle broke after 40 days.");
    RunView view = settled(runs, run);

    // then the think call asked for the schema in OpenAI's form, strictly, and the plan call did not
    List<Recorded> calls = requestsOf("[valid]");
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0).body().has("response_format")).as("the plan call").isFalse();
    JsonNode format = calls.get(1).body().path("response_format");
    assertThat(format.path("type").asText()).isEqualTo("json_schema");
    assertThat(format.at("/json_schema/name").asText()).isEqualTo("answer");
    assertThat(format.at("/json_schema/strict").asBoolean()).isTrue();
    assertThat(format.at("/json_schema/schema/properties/priority/enum").toString())
        .isEqualTo("[\"urgent\",\"normal\",\"low\"]");
    assertThat(calls.get(1).body().at("/messages/0/content").asText())
        .contains("give it as one JSON object that matches this JSON Schema");
    // and the run answered with the fields, which the process has as variables of their own
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData()).isEqualTo(AnswerSchemaRuns.json(VALID));
    assertThat(view.turns().get(0).answerData()).isEqualTo(AnswerSchemaRuns.json(VALID));
    assertThat(variable(engine, run, "answer_category")).isEqualTo("defect");
    assertThat(variable(engine, run, "answer_days")).isEqualTo(2L);
    assertThat(((SpinJsonNode) variable(engine, run, ReactAgentProcess.ANSWER_DATA)).prop("priority").stringValue())
        .isEqualTo("urgent");
    assertThat(variable(engine, run, "outcome")).isEqualTo("ANSWERED");
  }

  @Test
  void should_read_fields_wrapped_in_prose_and_a_fence_with_a_trailing_comma() {
    // given
    String wrapped = "Here is the triage:\n```json\n{\"category\": \"refund\", \"priority\": \"low\", \"days\": 5,"
        + " \"reply\": \"Refund on its way.\",}\n```\nLet me know if anything is missing.";
    REPLIES.queue("[prose]", PLAN, textCompletion(wrapped, 300, 60));

    // when
    RunView view = settled(runs, runs.start(AGENT, "[prose] I want my money back."));

    // then
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData().path("category").asText()).isEqualTo("refund");
    assertThat(view.answerData().path("days").asInt()).isEqualTo(5);
    assertThat(view.finalAnswer()).as("the answer as the model wrote it").isEqualTo(wrapped);
  }

  @Test
  void should_send_a_wrong_type_back_with_the_validators_message_and_take_the_repaired_answer() {
    // given days as a word first, then as a number
    String wrong = VALID.replace("\"days\": 2", "\"days\": \"two\"");
    REPLIES.queue("[repair]", PLAN, textCompletion(wrong, 300, 40), textCompletion(VALID, 400, 40));

    // when
    String run = runs.start(AGENT, "[repair] The parcel never came.");
    RunView view = settled(runs, run);

    // then the second call told the model what was wrong, and the repaired answer stands
    List<Recorded> calls = requestsOf("[repair]");
    assertThat(calls).hasSize(3);
    assertThat(calls.get(2).body().path("messages").toString())
        .contains("your final answer does not match the answer schema: /days: string found, integer expected");
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData().path("days").asInt()).isEqualTo(2);
    assertThat(view.modelCalls()).as("the repair is a model call of the budget").isEqualTo(3);
    assertThat(kinds(run)).containsExactly(StepKind.PLAN, StepKind.THOUGHT, StepKind.OBSERVATION,
        StepKind.FINAL_ANSWER);
  }

  @Test
  void should_hand_a_run_whose_answer_misses_a_field_every_time_to_a_person_naming_the_field() {
    // given three answers without a reply: the first and two repairs
    String missing = "{\"category\": \"other\", \"priority\": \"low\", \"days\": 1}";
    REPLIES.queue("[missing]", PLAN, textCompletion(missing, 300, 30), textCompletion(missing, 300, 30),
        textCompletion(missing, 300, 30));

    // when
    String run = runs.start(AGENT, "[missing] Hello?");
    RunView view = settled(runs, run);

    // then the run waits for a person who reads which field is missing; nothing passes for an answer
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("did not match the agent's answer schema, also after 2 repairs")
        .contains("required property 'reply' not found");
    assertThat(view.answerData()).isNull();
    assertThat(view.finalAnswer()).isNull();
    assertThat(view.modelCalls()).isEqualTo(4);
    assertThat(engine.getRuntimeService().getVariable(run, "answer_category")).isNull();
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ANSWER_DATA)).isNull();
  }

  @Test
  void should_never_repair_a_cut_reply_into_fields() {
    // given JSON that stops mid-value at the output limit
    REPLIES.queue("[cut]", PLAN,
        textCompletion("{\"category\": \"defect\", \"priority\": \"urg", 300, 16).replace("\"stop\"", "\"length\""));

    // when
    String run = runs.start(AGENT, "[cut] Broken lid.");
    RunView view = settled(runs, run);

    // then no repair was asked for: the run waits for a person, told about the limit
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("hit its output limit");
    assertThat(requestsOf("[cut]")).hasSize(2);
    assertThat(view.answerData()).isNull();
  }

  @Test
  void should_hand_a_filtered_reply_to_a_person_never_answering_with_it() {
    // given the content filter took a reply that reads like an answer
    REPLIES.queue("[filtered]", PLAN, textCompletion(VALID, 300, 40).replace("\"stop\"", "\"content_filter\""));

    // when
    String run = runs.start(AGENT, "[filtered] Tell me.");
    RunView view = settled(runs, run);

    // then
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("The provider filtered the answer (stop reason 'content_filter')");
    assertThat(view.answerData()).isNull();
    assertThat(view.finalAnswer()).isNull();
  }

  @Test
  void should_hand_a_refusal_of_structured_outputs_to_a_person() {
    // given OpenAI's structured-outputs refusal: no content, the refusal in its own field
    String refusal = textCompletion("x", 300, 10).replace("\"content\":\"x\"", "\"content\":null")
        .replace("\"refusal\":null", "\"refusal\":\"I can't help with that.\"");
    REPLIES.queue("[refused]", PLAN, refusal);

    // when
    String run = runs.start(AGENT, "[refused] Help me.");
    RunView view = settled(runs, run);

    // then
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("The model refused");
    assertThat(runs.trace(run, false).stream().filter(step -> step.kind() == StepKind.THOUGHT).findFirst()
        .orElseThrow().text("text")).isEqualTo("I can't help with that.");
  }

  private List<Recorded> requestsOf(String marker) {
    return SERVER.requests().stream().filter(request -> request.body().toString().contains(marker)).toList();
  }

  private List<StepKind> kinds(String run) {
    return runs.trace(run, false).stream().map(step -> step.kind()).toList();
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(request -> {
        String body = REPLIES.next(request.body().toString());
        return body == null ? null : new Response(200, body);
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
