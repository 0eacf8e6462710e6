package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.SseClient;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A run over the OpenAI wire, streamed ({@code agentloop.llm.stream} on by default), followed by a real SSE client on
 * {@code GET /api/runs/{id}/events}: the answer's text arrives in {@code text} events before the step it becomes, in
 * order, and they make the answer; the first try of the answer is cut midway, and its text is followed by
 * {@code text-dropped}, never by an answer.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "camunda.bpm.process-engine-name=streamedRunEvents"})
@ActiveProfiles("test")
class StreamedRunEventsWireTest {

  private static final String ANSWER = "Seventeen times twenty-three is 391: ten times 23 is 230, seven times 23 is"
      + " 161, and 230 and 161 make 391.";
  private static final AtomicInteger THINKING = new AtomicInteger();
  private static final FakeOpenAiServer SERVER = start();

  @LocalServerPort int port;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_send_the_answers_text_as_it_streams_before_its_step_and_drop_the_text_of_a_cut_try() {
    // given a run that waits for its plan's review, followed from its start
    ApiClient operator = ApiClient.as(port, "operator");
    String run = body(operator.post("/api/runs", "{\"question\": \"What is 17 * 23?\", \"agent\": \""
        + TestAgent.REVIEWED + "\"}"), 201).get("id").asText();
    String task = operator.awaitTask(run, ReactAgentProcess.REVIEW_PLAN).get("id").asText();
    try (SseClient stream = SseClient.open(port, "/api/runs/" + run + "/events", "operator", null)) {
      assertThat(stream.until(event -> event.name().equals("waiting"), Runs.PATIENCE)).isNotEmpty();

      // when the plan is accepted, and the model answers: its first try cut midway, the second whole
      body(operator.post("/api/runs/" + run + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}"), 200);
      List<SseClient.Event> events = stream.until(event -> event.name().equals("waiting"), Runs.PATIENCE);

      // then the cut try's text came, and was dropped
      List<String> names = events.stream().map(SseClient.Event::name).toList();
      int dropped = names.indexOf("text-dropped");
      assertThat(dropped).as("a text-dropped event in %s", names).isPositive();
      String cut = texts(events.subList(0, dropped));
      assertThat(cut).isNotEmpty();
      assertThat(ANSWER).startsWith(cut).isNotEqualTo(cut);
      assertThat(data(events.get(dropped)).get("turn").asInt()).isEqualTo(1);

      // and the second try's text arrived before any step, in order, making the answer
      int firstStep = names.indexOf("step");
      assertThat(firstStep).isGreaterThan(dropped);
      List<SseClient.Event> retried = events.subList(dropped + 1, firstStep);
      assertThat(retried).extracting(SseClient.Event::name).containsOnly("text").hasSizeGreaterThan(10);
      assertThat(texts(retried)).isEqualTo(ANSWER);
      assertThat(retried).allSatisfy(event -> {
        assertThat(data(event).get("purpose").asText()).isEqualTo("think");
        assertThat(data(event).get("runId").asText()).isEqualTo(run);
        assertThat(event.id()).isNull();
      });

      // and the step and the answer say what became of it: the whole answer, the cut text nowhere
      SseClient.Event answer = events.get(names.indexOf("answer"));
      assertThat(data(answer).get("text").asText()).isEqualTo(ANSWER);
      assertThat(names.subList(firstStep, names.size())).doesNotContain("text", "text-dropped");
    }
    assertThat(THINKING.get()).as("the cut try and the whole one").isEqualTo(2);
  }

  private static String texts(List<SseClient.Event> events) {
    StringBuilder joined = new StringBuilder();
    events.stream().filter(event -> event.name().equals("text")).forEach(event -> joined.append(data(event)
        .get("text").asText()));
    return joined.toString();
  }

  private static JsonNode data(SseClient.Event event) {
    try {
      return JSON.readTree(event.data());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Plans in one step; answers the question, the first time cut halfway through its stream. */
  private static Response answer(Recorded request) {
    boolean plan = request.body().path("messages").path(0).path("content").asText().startsWith("Write a short plan");
    if (plan) {
      return new Response(200, FakeOpenAiServer.textCompletion("[\"Multiply\"]", 10, 5));
    }
    String reply = FakeOpenAiServer.textCompletion(ANSWER, 40, 30);
    return THINKING.incrementAndGet() == 1
        ? new Response(200, reply, Duration.ZERO, Map.of(FakeModelServer.CUT, "yes"))
        : new Response(200, reply);
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(StreamedRunEventsWireTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
