package dev.agentloop.internal.llm.scripted;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.SystemMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo script answers the leave-policy follow-up of a conversation from its earlier answer, so
 * that the demo shows a conversation without an API key; and a follow-up counts its turns from its
 * own question, not from the run's first.
 */
class ScriptedConversationTest {

  private static final String EARLIER = "You get 25 days of leave a year.";

  @Test
  void should_answer_the_demo_follow_up_with_the_earlier_answer() throws IOException {
    ScriptedChatModel model = new ScriptedChatModel(demoScript(), Runnable::run);
    String followUp = "And how many days can be carried over?";

    ModelReply reply = model.chat(request(followUp, List.of(new SystemMessage("You are careful."),
        new UserMessage("How many days of leave do I get?"), new AssistantMessage(EARLIER, List.of()),
        new UserMessage(followUp)), 4)).toCompletableFuture().join();

    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.text()).contains("\"" + EARLIER + "\"").contains("5 unused days carry over");
  }

  @Test
  void should_leave_the_first_question_of_a_run_as_it_was() throws IOException {
    ScriptedChatModel model = new ScriptedChatModel(demoScript(), Runnable::run);
    String question = "How many days can be carried over?";

    ModelReply reply = model.chat(request(question, List.of(new SystemMessage("You are careful."),
        new UserMessage(question)), 1)).toCompletableFuture().join();

    // no earlier answer to quote: the placeholder is filled with nothing, never shown as it is
    assertThat(reply.text()).doesNotContain("{earlierAnswer}").contains("(\"\")");
  }

  private static ModelRequest request(String question, List<ChatMessage> messages, int turn) {
    return new ModelRequest(ModelRequest.Purpose.THINK, messages, List.of(),
        new ModelRequest.RunInfo("run-1", question, turn, 0));
  }

  private static Script demoScript() throws IOException {
    try (InputStream json = ScriptedConversationTest.class.getResourceAsStream("/scripts/demo-script.json")) {
      return ScriptedChatModel.read(json);
    }
  }
}
