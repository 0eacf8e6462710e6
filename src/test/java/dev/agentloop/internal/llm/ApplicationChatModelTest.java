package dev.agentloop.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.spi.ChatModel;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@code agentloop.llm.provider=langchain4j}: the agents use the application's own LangChain4j
 * {@code ChatModel} bean, as LangChain4j's Spring Boot starter would make it.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, ApplicationChatModelTest.ApplicationModel.class},
    properties = {"agentloop.llm.provider=langchain4j", "camunda.bpm.process-engine-name=applicationChatModel"})
@ActiveProfiles("test")
class ApplicationChatModelTest {

  @Autowired RunService runs;
  @Autowired ChatModel agentModel;
  @Autowired ApplicationModel applicationModel;

  @Test
  void should_run_an_agent_on_the_applications_langchain4j_model() {
    String run = runs.start(TestAgent.KEY, "What is the answer?");

    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("42, said the application's model");
    assertThat(applicationModel.calls.get()).isEqualTo(2);
    assertThat(agentModel.endpoint()).isEqualTo("langchain4j:ApplicationModel");
  }

  /** The application's model (a bean of the application's): plans in one step and answers at once. */
  @TestConfiguration(proxyBeanMethods = false)
  static class ApplicationModel implements dev.langchain4j.model.chat.ChatModel {

    final AtomicInteger calls = new AtomicInteger();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      calls.incrementAndGet();
      boolean planning = request.messages().stream().anyMatch(message -> message instanceof SystemMessage system
          && system.text().contains("plan"));
      return ChatResponse.builder()
          .aiMessage(AiMessage.from(planning ? "[\"Answer\"]" : "42, said the application's model")).build();
    }
  }
}
