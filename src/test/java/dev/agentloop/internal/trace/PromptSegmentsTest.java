package dev.agentloop.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.Test;

/** The prompt of a model call stored as ranges of the previous prompt plus what is new, and read back whole. */
class PromptSegmentsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void should_store_a_grown_conversation_as_one_range_and_the_new_messages() {
    JsonNode base = messages("system", "question", "thought 1", "result 1", "warning");
    JsonNode next = messages("system", "question", "thought 1", "result 1", "thought 2", "result 2");

    JsonNode segments = PromptSegments.diff(base, next);

    assertThat(segments.toString()).isEqualTo("[{\"ref\":[0,4]}," + text("thought 2") + "," + text("result 2") + "]");
    assertThat(PromptSegments.apply(base, segments)).isEqualTo(next);
  }

  @Test
  void should_keep_a_sliding_window_as_ranges_without_storing_the_kept_steps_again() {
    JsonNode base = messages("system", "question", "s1", "s2", "s3", "s4");
    JsonNode next = messages("system", "question", "[earlier steps left out]", "s3", "s4", "s5");

    JsonNode segments = PromptSegments.diff(base, next);

    assertThat(segments.toString()).isEqualTo("[{\"ref\":[0,2]}," + text("[earlier steps left out]")
        + ",{\"ref\":[4,6]}," + text("s5") + "]");
    assertThat(PromptSegments.apply(base, segments)).isEqualTo(next);
  }

  @Test
  void should_store_a_prompt_that_shares_nothing_whole() {
    JsonNode base = messages("a", "b");
    JsonNode next = messages("c", "a");

    assertThat(PromptSegments.apply(base, PromptSegments.diff(base, next))).isEqualTo(next);
    assertThat(PromptSegments.apply(JSON.createArrayNode(), PromptSegments.diff(JSON.createArrayNode(), next))).isEqualTo(next);
  }

  private static String text(String text) {
    return "{\"role\":\"user\",\"text\":\"" + text + "\"}";
  }

  private static JsonNode messages(String... texts) {
    ArrayNode messages = JSON.createArrayNode();
    for (String text : texts) {
      messages.addObject().put("role", "user").put("text", text);
    }
    return messages;
  }
}
