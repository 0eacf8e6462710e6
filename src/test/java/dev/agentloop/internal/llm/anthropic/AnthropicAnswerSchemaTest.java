package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.AnswerSchemaRuns.VALID;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.escapeReason;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.settled;
import static dev.agentloop.internal.llm.AnswerSchemaRuns.variable;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
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
 * An agent with an answer schema on Anthropic's Messages wire, through the engine and a local fake of the API: the
 * request offers the schema as the forced answer tool, and each kind of answer ends as it must — valid fields,
 * fields as text in prose, a wrong type repaired, a missing field every time, a cut reply, a refusal, a paused turn.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=anthropic", "agentloop.llm.api-key=sk-ant-fake-key",
        "agentloop.llm.model=claude-test", "agentloop.llm.timeout=PT30S",
        // a context of its own: the engine named "default" (behind /engine-rest) stays the shared test context's
        "camunda.bpm.process-engine-name=anthropicAnswers"})
@ActiveProfiles("test")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnthropicAnswerSchemaTest {

  private static final String AGENT = "anthropic-triage";
  private static final AnswerSchemaRuns REPLIES = new AnswerSchemaRuns();
  private static final FakeAnthropicServer SERVER = start();
  private static final String PLAN = message("end_turn", 20, 5, text("[\"Triage the ticket\"]"));

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.anthropic.base-url", SERVER::baseUrl);
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
  void should_offer_the_schema_as_a_forced_answer_tool_and_take_its_call_as_the_fields() {
    // given
    REPLIES.queue("[valid]", PLAN, message("tool_use", 300, 40, toolUse("toolu_1", "final_answer", VALID)));

    // when
    String run = runs.start(AGENT, "[valid] My kettle broke after 40 days.");
    RunView view = settled(runs, run);

    // then the think call offered the answer tool with the schema as its input schema, and forced a tool
    List<JsonNode> calls = requestsOf("[valid]");
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0).has("tool_choice")).as("the plan call").isFalse();
    JsonNode think = calls.get(1);
    JsonNode answerTool = null;
    for (JsonNode tool : think.path("tools")) {
      if (tool.path("name").asText().equals("final_answer")) {
        answerTool = tool;
      }
    }
    assertThat(answerTool).as("the answer tool").isNotNull();
    assertThat(answerTool.at("/input_schema/properties/priority/enum").toString())
        .isEqualTo("[\"urgent\",\"normal\",\"low\"]");
    assertThat(answerTool.at("/input_schema/required").toString()).contains("reply");
    assertThat(think.at("/tool_choice/type").asText()).isEqualTo("any");
    // and its call is the answer: no tool ran, the run answered with the fields
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.toolCalls()).isZero();
    assertThat(view.answerData()).isEqualTo(AnswerSchemaRuns.json(VALID));
    assertThat(variable(engine, run, "answer_priority")).isEqualTo("urgent");
  }

  @Test
  void should_read_fields_the_model_wrote_as_text_in_prose() {
    // given a model that answered in text after all (as it may with extended thinking, where no tool is forced)
    REPLIES.queue("[prose]", PLAN, message("end_turn", 300, 60, text("The triage: {\"category\": \"delivery\","
        + " \"priority\": \"normal\", \"days\": 3, \"reply\": \"Your parcel is on its way.\"} Done.")));

    // when
    RunView view = settled(runs, runs.start(AGENT, "[prose] Where is my parcel?"));

    // then
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData().path("category").asText()).isEqualTo("delivery");
  }

  @Test
  void should_send_a_wrong_type_back_as_a_message_and_take_the_repaired_call() {
    // given
    String wrong = VALID.replace("\"priority\": \"urgent\"", "\"priority\": 1");
    REPLIES.queue("[repair]", PLAN, message("tool_use", 300, 40, toolUse("toolu_1", "final_answer", wrong)),
        message("tool_use", 400, 40, toolUse("toolu_2", "final_answer", VALID)));

    // when
    RunView view = settled(runs, runs.start(AGENT, "[repair] The lid is cracked."));

    // then
    List<JsonNode> calls = requestsOf("[repair]");
    assertThat(calls).hasSize(3);
    assertThat(calls.get(2).path("messages").toString())
        .contains("your final answer does not match the answer schema: /priority: integer found, string expected");
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData().path("priority").asText()).isEqualTo("urgent");
  }

  @Test
  void should_hand_a_run_whose_answer_misses_a_field_every_time_to_a_person_naming_the_field() {
    // given
    String missing = "{\"category\": \"other\", \"priority\": \"low\", \"reply\": \"Hi\"}";
    REPLIES.queue("[missing]", PLAN, message("tool_use", 300, 30, toolUse("toolu_1", "final_answer", missing)),
        message("tool_use", 300, 30, toolUse("toolu_2", "final_answer", missing)),
        message("tool_use", 300, 30, toolUse("toolu_3", "final_answer", missing)));

    // when
    String run = runs.start(AGENT, "[missing] Hello?");
    RunView view = settled(runs, run);

    // then
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("required property 'days' not found");
    assertThat(view.answerData()).isNull();
    assertThat(view.modelCalls()).isEqualTo(4);
  }

  @Test
  void should_never_repair_a_cut_reply_into_fields() {
    // given
    REPLIES.queue("[cut]", PLAN, message("max_tokens", 300, 4096, text("{\"category\": \"defect\", \"prio")));

    // when
    String run = runs.start(AGENT, "[cut] Broken lid.");
    RunView view = settled(runs, run);

    // then
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("hit its output limit (max tokens");
    assertThat(requestsOf("[cut]")).hasSize(2);
    assertThat(view.answerData()).isNull();
  }

  @Test
  void should_hand_a_refusal_to_a_person_never_answering_with_it() {
    // given a refusal whose text reads like an answer
    REPLIES.queue("[refusal]", PLAN, message("refusal", 300, 10, text(VALID)));

    // when
    String run = runs.start(AGENT, "[refusal] Tell me.");
    RunView view = settled(runs, run);

    // then
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("The model refused (stop reason 'refusal')");
    assertThat(view.finalAnswer()).isNull();
    assertThat(view.answerData()).isNull();
  }

  @Test
  void should_send_a_paused_turn_back_and_take_the_answer_it_goes_on_to() {
    // given a turn the API paused once, then finished with the answer
    REPLIES.queue("[paused]", PLAN, message("pause_turn", 300, 50, text("Looking it up, part one.")),
        message("tool_use", 400, 40, toolUse("toolu_1", "final_answer", VALID)));

    // when
    String run = runs.start(AGENT, "[paused] Look it up.");
    RunView view = settled(runs, run);

    // then the paused text went back as the assistant's turn, and the run answered after it
    List<JsonNode> calls = requestsOf("[paused]");
    assertThat(calls).hasSize(3);
    JsonNode messages = calls.get(2).path("messages");
    assertThat(messages.get(messages.size() - 1).path("role").asText()).isEqualTo("assistant");
    assertThat(messages.toString()).contains("Looking it up, part one.");
    assertThat(view.status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.answerData()).isEqualTo(AnswerSchemaRuns.json(VALID));
  }

  @Test
  void should_hand_a_turn_paused_again_and_again_to_a_person() {
    // given a turn paused four times in a row
    String paused = message("pause_turn", 300, 50, text("Still looking."));
    REPLIES.queue("[stalled]", PLAN, paused, paused, paused, paused);

    // when
    String run = runs.start(AGENT, "[stalled] Look it up.");
    RunView view = settled(runs, run);

    // then it was sent back three times, never taken as an answer
    assertThat(view.waitingFor()).contains(ReactAgentProcess.AGENT_STUCK);
    assertThat(escapeReason(engine, run)).contains("paused the model's turn 4 times in a row");
    assertThat(requestsOf("[stalled]")).hasSize(5);
    assertThat(runs.trace(run, false).stream().map(Step::kind)).doesNotContain(StepKind.FINAL_ANSWER);
  }

  private List<JsonNode> requestsOf(String marker) {
    return SERVER.requests().stream().map(FakeAnthropicServer.Recorded::body)
        .filter(body -> body.toString().contains(marker)).toList();
  }

  private static FakeAnthropicServer start() {
    try {
      return new FakeAnthropicServer().answerBodiesWith(body -> REPLIES.next(body.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
