package dev.agentloop.internal.llm.openai;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What OpenAI's prompt cache served, from the wire to what operators read: {@code prompt_tokens_details.cached_tokens}
 * of each reply is the step's cached prompt tokens in the trace, the run's totals sum them, the price table turns
 * them into money with and without the cache, per step and per run, and Prometheus counts tokens by kind and money
 * by agent and model. A model without a price gets tokens only.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "agentloop.llm.prices.chat-model.input=2.50", "agentloop.llm.prices.chat-model.cached-input=1.25",
        "agentloop.llm.prices.chat-model.output=10",
        // a model name with a dot, which only the bracket notation can key
        "agentloop.llm.prices[other-4.1].input=1", "agentloop.llm.prices[other-4.1].output=1",
        // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
        "camunda.bpm.process-engine-name=promptCacheCostWire"})
@ActiveProfiles("test")
class PromptCacheCostWireTest {

  private static final String AGENT = "wire-cost-agent";
  private static final FakeOpenAiServer SERVER = start();

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
  void should_carry_the_cached_tokens_of_each_reply_to_its_step_the_run_and_the_money_with_and_without_the_cache() {
    // given an agent whose plan call had 1,024 of 1,204 prompt tokens from the cache, and its answer 1,280 of 1,300
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));

    // when
    String run = runs.start(AGENT, "What is the answer?");
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).status() == RunStatus.ANSWERED);

    // then each model step's cost has its prompt tokens, those from the cache, the model and its money
    ApiClient api = ApiClient.as(port, "operator");
    JsonNode steps = body(api.get("/api/runs/" + run + "/trace"), 200).get("steps");
    JsonNode plan = steps.get(0).get("cost");
    assertThat(plan.get("promptTokens").asLong()).isEqualTo(1204);
    assertThat(plan.get("cacheReadTokens").asLong()).isEqualTo(1024);
    assertThat(plan.get("cacheWriteTokens").isNull()).as("OpenAI reports no cache writes").isTrue();
    assertThat(plan.get("completionTokens").asLong()).isEqualTo(20);
    assertThat(plan.get("model").asText()).isEqualTo("chat-model");
    // 180 uncached at 2.50, 1,024 cached at 1.25, 20 out at 10 per million; without the cache all 1,204 at 2.50
    assertMoney(steps.get(0).get("money"), "0.00193", "0.00321");
    JsonNode answer = steps.get(steps.size() - 1);
    assertThat(answer.get("kind").asText()).isEqualTo("FINAL_ANSWER");
    assertThat(answer.at("/cost/cacheReadTokens").asLong()).isEqualTo(1280);
    assertMoney(answer.get("money"), "0.00177", "0.00337");
    // and the run sums them, cached tokens apart
    JsonNode view = body(api.get("/api/runs/" + run), 200);
    assertThat(view.at("/costs/promptTokens").asLong()).isEqualTo(2504);
    assertThat(view.at("/costs/cacheReadTokens").asLong()).isEqualTo(2304);
    assertThat(view.at("/costs/cacheWriteTokens").isNull()).isTrue();
    assertMoney(view.get("money"), "0.0037", "0.00658");
    assertThat(view.at("/money/currency").asText()).isEqualTo("USD");
    assertThat(view.at("/money/unpricedModelCalls").asInt()).isZero();
    assertThat(view.get("tokens").asLong()).as("budgets count every prompt token, cached or not").isEqualTo(2536);
    // and Prometheus counts the tokens by kind and the money by agent and model
    String metrics = ApiClient.anonymous(port).get("/actuator/prometheus").body();
    assertThat(metrics).contains(
        "agentloop_tokens_total{agent=\"" + AGENT + "\",kind=\"cache_read\",model=\"chat-model\"} 2304.0",
        "agentloop_tokens_total{agent=\"" + AGENT + "\",kind=\"input\",model=\"chat-model\"} 200.0",
        "agentloop_tokens_total{agent=\"" + AGENT + "\",kind=\"output\",model=\"chat-model\"} 32.0",
        "agentloop_cost_total{agent=\"" + AGENT + "\",currency=\"USD\",model=\"chat-model\"} 0.0037");
    assertThat(metrics).doesNotContain("kind=\"cache_write\",model=\"chat-model\"");
  }

  private static void assertMoney(JsonNode money, String amount, String withoutCache) {
    assertThat(money.get("amount").decimalValue()).isEqualByComparingTo(new BigDecimal(amount));
    assertThat(money.get("withoutCache").decimalValue()).isEqualByComparingTo(new BigDecimal(withoutCache));
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(PromptCacheCostWireTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Response answer(Recorded request) {
    boolean planning = request.body().at("/messages/0/content").asText().startsWith("Write a short plan");
    return new Response(200, planning ? FakeOpenAiServer.textCompletion("1. Answer the question", 1204, 20, 1024)
        : FakeOpenAiServer.textCompletion("Forty-two.", 1300, 12, 1280));
  }
}
