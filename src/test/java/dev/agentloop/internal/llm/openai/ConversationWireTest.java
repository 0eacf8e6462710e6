package dev.agentloop.internal.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.internal.resume.Conversations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A conversation on the OpenAI wire, through the engine and a local fake of the endpoint: the model
 * call of a later turn carries the earlier turns in order, each question as a user message and each
 * answer as an assistant message, and the current question last.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "camunda.bpm.process-engine-name=conversationWire"})
@ActiveProfiles("test")
class ConversationWireTest {

  private static final String AGENT = "wire-conversation-agent";
  private static final FakeOpenAiServer SERVER = start();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Conversations conversations;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void should_send_the_earlier_turns_in_order_with_each_answer_as_an_assistant_message() {
    // given a conversation of two answered turns
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true"));
    String run = runs.start(AGENT, "How many days of leave do I get?");
    awaitTurns(run, 1);
    conversations.ask(run, "And how many carry over?", "ana");
    awaitTurns(run, 2);
    int before = SERVER.requests().size();

    // when the third question is asked
    conversations.ask(run, "Until when must I take them?", "ana");
    awaitTurns(run, 3);

    // then its plan call and its first think call hold turns 1 and 2 in order, then the third question
    List<Recorded> turnThree = SERVER.requests().subList(before, SERVER.requests().size());
    assertThat(turnThree).hasSize(2);
    List<String> conversation = List.of(
        "user: How many days of leave do I get?",
        "assistant: Answer to: How many days of leave do I get?",
        "user: And how many carry over?",
        "assistant: Answer to: And how many carry over?",
        "user: Until when must I take them?");
    assertThat(roleAndText(turnThree.get(0).body().path("messages"))).as("the plan call")
        .startsWith("system").containsSubsequence(conversation).endsWith(conversation.get(4));
    List<String> think = roleAndText(turnThree.get(1).body().path("messages"));
    assertThat(think).as("the think call").hasSize(6);
    assertThat(think.subList(1, 6)).containsExactlyElementsOf(conversation);
    assertThat(runs.view(run).turns().get(2).answer()).isEqualTo("Answer to: Until when must I take them?");
  }

  private void awaitTurns(String run, int turns) {
    await().atMost(Runs.PATIENCE).until(() -> {
      RunView view = runs.view(run);
      return view.waitingFor().contains(RunView.FOLLOW_UP) && view.turns().size() == turns;
    });
  }

  /** {@code role: content} per message; the system prompt as its role alone. */
  private static List<String> roleAndText(JsonNode messages) {
    List<String> lines = new ArrayList<>();
    for (JsonNode message : messages) {
      String role = message.path("role").asText();
      lines.add(role.equals("system") ? role : role + ": " + message.path("content").asText());
    }
    return lines;
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(ConversationWireTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Plans in one step; answers the last user message at once, naming it. */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return new Response(200, FakeOpenAiServer.textCompletion("1. Answer the question", 10, 5));
    }
    String last = "";
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("user")) {
        last = message.path("content").asText();
      }
    }
    return new Response(200, FakeOpenAiServer.textCompletion("Answer to: " + last, 10, 5));
  }
}
