package dev.agentloop.internal.evaluation;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The one application of the evaluation tests: the real engine, H2, the shop's tools and the model on the OpenAI wire
 * (a local fake, one for all of them), so that Spring starts it once for every test class that extends this. The fake
 * answers as {@link ShopModel} unless a class gives it a model of its own for its tests. The refund runs without a
 * person's approval; the shop's credit needs one.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, EvaluationApiTest.ShopTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "agentloop.tools.approval.issue_refund=false", "agentloop.tools.approval.issue_credit=true",
        "agentloop.evaluation.poll-interval=PT0.1S", "camunda.bpm.process-engine-name=shopEvaluation"})
@ActiveProfiles("test")
abstract class ShopEvaluationContext {

  private static final FakeOpenAiServer MODEL = start();

  @Autowired ProcessEngine engine;
  @LocalServerPort int port;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", MODEL::baseUrl);
  }

  @BeforeAll
  static void shopModel() {
    MODEL.answerWith(ShopModel::answer);
  }

  /** For the tests of the calling class: the fake answers as this model (a class's {@code @BeforeAll} runs later). */
  static void answerWith(Function<Recorded, Response> model) {
    MODEL.answerWith(model);
  }

  ApiClient operator() {
    return ApiClient.as(port, "operator");
  }

  private static FakeOpenAiServer start() {
    try {
      // it lives as long as the test JVM, as the Spring context that calls it does
      return new FakeOpenAiServer().answerWith(ShopModel::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
