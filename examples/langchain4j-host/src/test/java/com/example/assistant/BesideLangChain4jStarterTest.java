package com.example.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.api.AgentRuns;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.langchain4j.http.client.HttpClientBuilderLoader;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * AgentLoop with {@code provider=openai} beside LangChain4j's Spring Boot starter: the application starts, and a
 * run of the default agent gets its plan and answer from the (fake) OpenAI endpoint through AgentLoop's adapter.
 */
@SpringBootTest(properties = {"agentloop.agent.auto-accept-plan=true", "agentloop.agent.auto-accept-answer=true"})
class BesideLangChain4jStarterTest {

  static final FakeOpenAi OPENAI = start();

  @Autowired AgentRuns runs;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", OPENAI::baseUrl);
    registry.add("agentloop.llm.api-key", () -> "sk-test");
  }

  @AfterAll
  static void stop() {
    OPENAI.close();
  }

  @Test
  void should_start_where_langchain4j_alone_would_find_two_http_clients() {
    // the condition the issue met: LangChain4j's lookup of "the" HTTP client fails in this application
    assertThatThrownBy(HttpClientBuilderLoader::loadHttpClientBuilder).hasMessageContaining("Conflict");
  }

  @Test
  void should_answer_a_run_through_agentloops_openai_adapter() throws InterruptedException {
    String run = runs.start("react-agent", "What is the answer to everything?");

    RunView view = awaitFinished(run);

    assertThat(view.status()).as(view.toString()).isEqualTo(RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("The answer is 42.");
    assertThat(OPENAI.requests()).hasSizeGreaterThanOrEqualTo(2)
        .allSatisfy(request -> assertThat(request.get("model").asText()).isEqualTo("gpt-4o-mini"));
  }

  private RunView awaitFinished(String run) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    RunView view = runs.view(run);
    while (!view.status().isFinished() && view.status() != RunStatus.FAILED && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
      view = runs.view(run);
    }
    return view;
  }

  private static FakeOpenAi start() {
    try {
      // the plan step asks for a JSON array of steps; every other call gets the final answer
      return new FakeOpenAi(request -> request.toString().contains("Write a short plan")
          ? "[\"Answer from what I know\"]" : "The answer is 42.");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
