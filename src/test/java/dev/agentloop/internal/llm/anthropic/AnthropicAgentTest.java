package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.thinking;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepCost;
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
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An agent on {@code agentloop.llm.provider=anthropic} through the whole loop, against a local server
 * that speaks Anthropic's Messages wire format: plan, parallel tool use, thinking, final answer.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=anthropic", "agentloop.llm.api-key=sk-ant-fake-key",
        "agentloop.llm.model=claude-test", "agentloop.llm.timeout=PT5S",
        "agentloop.llm.anthropic.thinking-budget-tokens=1024",
        // priced without cache writes: a call that wrote to the cache has no price
        "agentloop.llm.prices.claude-test.input=3", "agentloop.llm.prices.claude-test.cached-input=0.30",
        "agentloop.llm.prices.claude-test.output=15",
        // a context of its own: the engine named "default" (behind /engine-rest) stays the shared test context's
        "camunda.bpm.process-engine-name=anthropicAgent"})
@ActiveProfiles("test")
class AnthropicAgentTest {

  private static final FakeAnthropicServer SERVER = start();

  @Autowired RunService runs;
  @Autowired ChatModel model;
  @Autowired ProcessEngine engine;
  @Autowired RunInsights insights;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.anthropic.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_plan_call_tools_in_parallel_and_answer_through_the_messages_api() {
    // given the model's replies: a plan, two calculator calls at once after some thinking, the answer
    SERVER.respond(200, message("end_turn", 200, 20, text("[\"Compute both products\", \"Answer\"]")));
    SERVER.respond(200, message("tool_use", 400, 60, thinking("Two products; both at once."),
        toolUse("toolu_a", "calculator", "{\"expression\": \"17 * 23\"}"),
        toolUse("toolu_b", "calculator", "{\"expression\": \"6 * 7\"}")));
    SERVER.respond(200, message("end_turn", 500, 12, thinking("391 and 42."), text("391 and 42")));

    // when
    String run = runs.start(TestAgent.KEY, "What are 17 * 23 and 6 * 7?");
    RunView view = Runs.awaitView(runs, run, v -> v.status() == RunStatus.ANSWERED && v.finalAnswer() != null);

    // then the tools ran, the answer is the text and not the thinking, and the tokens were counted
    assertThat(model.endpoint()).isEqualTo("anthropic:" + SERVER.baseUrl());
    assertThat(view.finalAnswer()).isEqualTo("391 and 42");
    List<Step> observations = runs.trace(run, false).stream().filter(s -> s.kind() == StepKind.OBSERVATION).toList();
    assertThat(observations).extracting(s -> s.text("result")).containsExactly("391", "42");
    assertThat(view.modelCalls()).isEqualTo(3);
    assertThat(view.tokens()).isEqualTo(220 + 460 + 512);
    // and the last request sent the tool results back for both tool_use ids, after the signed thinking
    String last = SERVER.requests().get(2).body().path("messages").toString();
    assertThat(last).contains("\"tool_use_id\":\"toolu_a\"", "\"tool_use_id\":\"toolu_b\"", "\"signature\"");
    assertThat(SERVER.requests()).allSatisfy(request -> assertThat(request.apiKey()).isEqualTo("sk-ant-fake-key"));
  }

  @Test
  void should_count_tokens_read_from_and_written_to_the_prompt_cache_into_the_steps_prompt_and_price_what_it_can() {
    // given a plan call that wrote 1,000 prompt tokens to the cache, and an answer that read them from it
    SERVER.respond(200, message("end_turn", 50, 20, 0, 1000, text("[\"Answer\"]")));
    SERVER.respond(200, message("end_turn", 60, 12, 1000, 0, text("Forty-two")));

    // when
    String run = runs.start(TestAgent.KEY, "What is the answer to everything?");
    RunView view = Runs.awaitView(runs, run, v -> v.status() == RunStatus.ANSWERED && v.finalAnswer() != null);

    // then Anthropic's input tokens, which leave the cached ones out, are counted with them as the prompt's
    Map<Integer, StepCost> costs = insights.costs(run);
    StepCost plan = costs.get(1);
    assertThat(plan.promptTokens()).isEqualTo(1050);
    assertThat(plan.cacheWriteTokens()).isEqualTo(1000);
    assertThat(plan.cacheReadTokens()).isZero();
    assertThat(plan.totalTokens()).isEqualTo(1070);
    assertThat(plan.model()).isEqualTo("claude-test");
    StepCost answer = costs.get(view.steps());
    assertThat(answer.promptTokens()).isEqualTo(1060);
    assertThat(answer.cacheReadTokens()).isEqualTo(1000);
    assertThat(view.costs().promptTokens()).isEqualTo(2110);
    assertThat(view.costs().cacheReadTokens()).isEqualTo(1000);
    assertThat(view.costs().cacheWriteTokens()).isEqualTo(1000);
    // and the run's money is the answer's alone: the plan wrote to the cache, which has no price here
    // (60 at 3, 1,000 cached at 0.30, 12 out at 15 per million; without the cache all 1,060 at 3)
    assertThat(view.money().amount()).isEqualByComparingTo("0.00066");
    assertThat(view.money().withoutCache()).isEqualByComparingTo("0.00336");
    assertThat(view.money().unpricedModelCalls()).isEqualTo(1);
  }

  @Test
  void should_escape_to_a_person_when_the_final_answer_is_cut_at_max_tokens_never_answering_with_it() {
    // given a plan, then an answer that Anthropic cut at max_tokens
    SERVER.respond(200, message("end_turn", 200, 20, text("[\"Compute\", \"Answer\"]")));
    SERVER.respond(200, message("max_tokens", 300, 4096, thinking("Seven, I think."), text("The answer is 7")));

    // when
    String run = runs.start(TestAgent.KEY, "What is 3 + 4, explained at length?");
    Task stuck = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);

    // then the run waits for a person, told which limit to raise, and has no answer
    assertThat(stuck).isNotNull();
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_CODE.name()))
        .isEqualTo(Escapes.BUDGET_EXHAUSTED);
    assertThat((String) engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_REASON.name()))
        .startsWith("The model's reply hit its output limit (max tokens 4096): raise agentloop.llm.anthropic.max-tokens,")
        .contains("stop reason 'max_tokens'");
    RunView view = runs.view(run);
    assertThat(view.status()).isNotEqualTo(RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isNull();
    assertThat(view.modelCalls()).as("no second try into the same limit").isEqualTo(2);
    // and the trace keeps the cut text as a thought with the stop reason of every model step
    List<Step> trace = runs.trace(run, false);
    assertThat(Runs.kinds(trace)).doesNotContain(StepKind.FINAL_ANSWER);
    Step cut = trace.stream().filter(s -> s.kind() == StepKind.THOUGHT).reduce((a, b) -> b).orElseThrow();
    assertThat(cut.text("text")).isEqualTo("The answer is 7");
    assertThat(cut.text("stopReason")).isEqualTo("max_tokens");
    assertThat(trace.stream().filter(s -> s.kind() == StepKind.PLAN).findFirst().orElseThrow().text("stopReason"))
        .isEqualTo("end_turn");
  }

  @Test
  void should_never_run_a_tool_call_cut_at_max_tokens() {
    // given a plan, then a tool_use whose input Anthropic cut at max_tokens
    SERVER.respond(200, message("end_turn", 200, 20, text("[\"Compute\"]")));
    SERVER.respond(200, message("max_tokens", 300, 4096, toolUse("toolu_cut", "calculator", "{\"expression\": \"17\"}")));

    // when
    String run = runs.start(TestAgent.KEY, "What is 17 * 23?");
    Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);

    // then no action was written and no tool ran
    List<Step> trace = runs.trace(run, false);
    assertThat(Runs.kinds(trace)).doesNotContain(StepKind.ACTION);
    assertThat(trace).noneMatch(s -> s.kind() == StepKind.OBSERVATION && !s.text("result").isEmpty());
    assertThat(runs.view(run).toolCalls()).isZero();
  }

  @Test
  void should_not_take_a_plan_cut_at_max_tokens_but_say_which_limit_to_raise() {
    // given a plan that Anthropic cuts mid-step, each time it is asked (the test profile's 2 retries and the first try)
    String cut = message("max_tokens", 200, 4096, text("[\"Compute the first product\", \"Comp"));
    for (int i = 0; i < 3; i++) {
      SERVER.respond(200, cut);
    }

    // when
    String run = runs.start(TestAgent.KEY, "What are 17 * 23 and 7 * 7?");
    RunView view = Runs.awaitView(runs, run, v -> v.incident() != null);

    // then no plan was written, and the incident names the limit and its setting
    assertThat(view.incident()).startsWith("The model's reply hit its output limit (max tokens 4096): raise"
        + " agentloop.llm.anthropic.max-tokens");
    assertThat(Runs.kinds(runs.trace(run, false))).doesNotContain(StepKind.PLAN);
    assertThat(SERVER.requests().stream().filter(r -> r.body().toString().contains("17 * 23 and 7 * 7"))).hasSize(3);
  }

  @Test
  void should_show_anthropics_error_as_its_type_and_message_in_the_incident_never_as_raw_json() {
    // given an endpoint that refuses every call of this run (the first try and the test profile's 2 retries)
    for (int i = 0; i < 3; i++) {
      SERVER.respond(400, FakeAnthropicServer.error("invalid_request_error", "max_tokens: must be at most 64000"));
    }

    // when
    String run = runs.start(TestAgent.KEY, "What is 2 + 9?");
    RunView view = Runs.awaitView(runs, run, v -> v.incident() != null);

    // then
    assertThat(view.incident()).startsWith("anthropic:" + SERVER.baseUrl() + " answered HTTP 400"
        + " (invalid_request_error): max_tokens: must be at most 64000").doesNotContain("{", "\"type\"");
  }

  private static FakeAnthropicServer start() {
    try {
      return new FakeAnthropicServer();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
