package dev.agentloop.internal.llm.scripted;

import static dev.agentloop.internal.llm.ModelCalls.reply;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.llm.RecordedText;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scripted model sends each reply's text in a few pieces before the reply, as a streaming provider would. */
class ScriptedTextTest {

  @ParameterizedTest
  @ValueSource(strings = {"The answer is 757, from the figures the tools gave.", "757", "",
      "nospacesinthisanswerofsomelengthatall", "ends with a space "})
  void should_send_the_replys_text_in_up_to_four_pieces_that_make_it(String answer) throws IOException {
    // given
    RecordedText text = new RecordedText();
    ScriptedChatModel model = new ScriptedChatModel(script(answer), Runnable::run, text);

    // when
    ModelReply reply = reply(model.chat(new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ChatMessage.UserMessage("What?")), List.of(), new ModelRequest.RunInfo("run-1", "What?", 1, 0))));

    // then
    assertThat(reply.text()).isEqualTo(answer);
    assertThat(text.joined()).isEqualTo(answer);
    assertThat(text.pieces()).hasSizeLessThanOrEqualTo(4).doesNotContain("");
    if (answer.length() > 20 && answer.contains(" ")) {
      assertThat(text.pieces()).hasSizeGreaterThan(1);
    }
  }

  @Test
  void should_send_no_text_for_a_reply_without_any() throws IOException {
    RecordedText text = new RecordedText();
    ScriptedChatModel model = new ScriptedChatModel(script(""), Runnable::run, text);

    reply(model.chat(new ModelRequest(ModelRequest.Purpose.THINK, List.of(new ChatMessage.UserMessage("What?")),
        List.of(), new ModelRequest.RunInfo("run-1", "What?", 1, 0))));

    assertThat(text.pieces()).isEmpty();
  }

  private static Script script(String answer) throws IOException {
    String json = "{\"latencyMillis\": 0, \"scenarios\": [], \"fallback\": {\"finalAnswer\": \""
        + answer.replace("\"", "\\\"") + "\"}}";
    return ScriptedChatModel.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
  }
}
