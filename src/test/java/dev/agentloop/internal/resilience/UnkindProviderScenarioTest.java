package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.OpenAiStreams;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Incident;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Whole runs against an unkind provider, a local fake of the OpenAI wire that misbehaves once per run, on the
 * first call (the plan), the way real providers and their proxies do: it is slow past the time-out, answers 429
 * with {@code Retry-After}, sends an empty {@code choices} list, cuts its reply midway, ends its stream before
 * {@code [DONE]} or sends an error object in it; each of these is tried
 * again and the run answers, the provider having received one request more than the run counted. An HTML page in
 * an HTTP 200 is not tried again by the call, only by the worker's step retries, and ends in an incident in words;
 * a refused key is an incident at once, after one request.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.api-key=sk-fake-key", "agentloop.llm.model=unkind",
        "agentloop.llm.timeout=PT1S",
        "camunda.bpm.process-engine-name=" + UnkindProviderScenarioTest.ENGINE})
@ActiveProfiles("test")
class UnkindProviderScenarioTest {

  static final String ENGINE = "unkindProvider";

  private static final FakeOpenAiServer SERVER = start();
  private static final Map<String, AtomicInteger> REQUESTS = new ConcurrentHashMap<>();

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

  @ParameterizedTest
  @ValueSource(strings = {"slow", "throttled", "no-choice", "cut", "unfinished", "error-midway"})
  void should_try_a_passing_failure_again_and_answer_paying_for_one_request_more(String kind) {
    // when the provider misbehaves once, on the run's first call
    String run = runs.start(TestAgent.KEY, kind + ": what is the answer?");

    // then the run answers with what the provider said the second time, and no step ran twice
    RunView answered = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(answered.modelCalls()).isEqualTo(2);
    assertThat(requests(kind)).as("the failed attempt and the run's two calls").isEqualTo(3);
    assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(run).count()).isZero();
  }

  @Test
  void should_raise_an_incident_in_words_after_one_request_when_a_proxy_page_comes_instead_of_the_api() {
    // when a proxy answers the run's first call with its sign-in page, in an HTTP 200
    String run = runs.start(TestAgent.KEY, "html: what is the answer?");

    // then the run is an incident that says so in one line, without a parser's message
    Incident incident = awaitIncident(run);
    assertThat(incident.getIncidentMessage())
        .contains("the endpoint answered with an HTML page, not the API: a proxy or sign-in page?")
        .contains("Corporate sign-in")
        .doesNotContain("\n").doesNotContain("Unexpected character").doesNotContain("<html");
    // the call level did not try it again; the worker tried the step again as for any failure (the test profile's
    // two retries), since a sign-in page may be gone a minute later
    assertThat(requests("html")).isEqualTo(3);
  }

  @Test
  void should_raise_an_incident_after_one_request_when_the_provider_refuses_the_key() {
    // when the provider answers 401
    String run = runs.start(TestAgent.KEY, "refused: what is the answer?");

    // then the run is an incident with the provider's message, after one request: the key will not get better
    Incident incident = awaitIncident(run);
    assertThat(incident.getIncidentMessage()).contains("HTTP 401").contains("Incorrect API key provided")
        .doesNotContain("sk-fake-key");
    assertThat(requests("refused")).isOne();
  }

  private Incident awaitIncident(String run) {
    return await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService().createIncidentQuery()
        .processInstanceId(run).singleResult(), incident -> incident != null);
  }

  private static int requests(String kind) {
    return REQUESTS.getOrDefault(kind, new AtomicInteger()).get();
  }

  // ---- the unkind provider ----------------------------------------------------------------------------

  private static final List<String> KINDS = List.of("slow", "throttled", "no-choice", "cut", "unfinished",
      "error-midway", "html", "refused");

  private static String kind(JsonNode body) {
    for (JsonNode message : body.path("messages")) {
      String content = message.path("content").asText();
      for (String kind : KINDS) {
        if (content.startsWith(kind + ": ")) {
          return kind;
        }
      }
    }
    return "";
  }

  /** Misbehaves on the first request of each run as its question says; then plans and answers. */
  private static Response answer(Recorded request) {
    String kind = kind(request.body());
    int number = REQUESTS.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    if (kind.equals("refused")) {
      return new Response(401, FakeOpenAiServer.errorBody("Incorrect API key provided: sk-fake***",
          "invalid_request_error", "invalid_api_key"));
    }
    if (kind.equals("html")) {
      return new Response(200, "<!DOCTYPE html>\n<html><head><title>Corporate sign-in</title></head>\n"
          + "<body><form action=\"/login\">Please sign in</form></body></html>");
    }
    boolean plan = request.body().path("messages").path(0).path("content").asText().startsWith("Write a short plan");
    String reply = plan ? FakeOpenAiServer.textCompletion("[\"Answer the question\"]", 10, 5)
        : FakeOpenAiServer.textCompletion("answered", 10, 5);
    if (number > 1) {
      return new Response(200, reply);
    }
    return switch (kind) {
      case "slow" -> new Response(200, reply, Duration.ofSeconds(3));
      case "throttled" -> new Response(429, FakeOpenAiServer.errorBody("Rate limit reached for requests",
          "requests", "rate_limit_exceeded"), Duration.ZERO, Map.of("Retry-After", "1"));
      case "no-choice" -> new Response(200, "{\"id\": \"chatcmpl-1\", \"object\": \"chat.completion\","
          + " \"model\": \"unkind\", \"choices\": []}");
      case "cut" -> new Response(200, reply, Duration.ZERO, Map.of(FakeModelServer.CUT, "yes"));
      // the stream ends cleanly, but before its last chunks and [DONE]
      case "unfinished" -> new Response(200, OpenAiStreams.of(reply).substring(0,
          OpenAiStreams.of(reply).indexOf("\"finish_reason\":\"stop\"")).replaceAll("data: [^\n]*$", ""));
      case "error-midway" -> new Response(200, OpenAiStreams.of(reply).substring(0,
          OpenAiStreams.of(reply).indexOf("\"finish_reason\":\"stop\"")).replaceAll("data: [^\n]*$", "")
          + "data: " + FakeOpenAiServer.errorBody("The server had an error while processing your request.",
              "server_error", null) + "\n\n");
      default -> new Response(200, reply);
    };
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(UnkindProviderScenarioTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
