package dev.agentloop.internal.llm.scripted;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ModelRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolResultTemplateTest {

  private static final String POLICY = """
      # Leave policy (demo document)

      - Every employee has 28 days of paid leave per calendar year.
      - Remote work from abroad is allowed for up to 30 working days per year. Ask first.""";

  private final ToolResultTemplate template = ToolResultTemplate.of(new ModelRequest(ModelRequest.Purpose.THINK,
      List.of(new ChatMessage.UserMessage("17 * 23?"), new ToolResultMessage("c1", "calculator", "it is 400"),
          new ToolResultMessage("c2", "read_document", POLICY)),
      List.of(), new ModelRequest.RunInfo("r", "17 * 23?", 3, 0)));

  @Test
  void should_fill_results_numbers_and_lines_from_the_tool_results_in_their_order() {
    assertThat(template.fill("{{number:1}} + 366; {{result:1}}")).isEqualTo("400 + 366; it is 400");
    assertThat(template.fill("{{line:2:FROM ABROAD}}"))
        .isEqualTo("Remote work from abroad is allowed for up to 30 working days per year.");
    assertThat(template.fill("{{line:2:paid leave}}")).isEqualTo("Every employee has 28 days of paid leave per calendar year.");
  }

  @Test
  void should_say_what_is_missing_instead_of_failing() {
    assertThat(template.fill("{{number:3}} and {{number:0}}")).isEqualTo("(no result 3) and (no result 0)");
    assertThat(template.fill("{{number:2}}")).isEqualTo("28");
    assertThat(template.fill("{{line:2:sabbatical}}")).isEqualTo(POLICY.strip());
    assertThat(template.fill("no {{placeholders}} here")).isEqualTo("no {{placeholders}} here");
    assertThat(template.fill(null)).isNull();
  }

  @Test
  void should_keep_arguments_valid_json_whatever_the_result_says() throws Exception {
    ToolResultTemplate quoting = ToolResultTemplate.of(new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ToolResultMessage("c1", "calculator", "say \"no\"\nthen stop")), List.of(),
        new ModelRequest.RunInfo("r", "q", 2, 0)));
    String arguments = quoting.fillJson("{\"expression\": \"{{result:1}}\"}");
    // a result without a number gives its text
    assertThat(quoting.fill("{{number:1}}")).isEqualTo("say \"no\"\nthen stop");
    assertThat(new ObjectMapper().readTree(arguments).get("expression").asText()).isEqualTo("say \"no\"\nthen stop");
  }

  @Test
  void should_count_the_results_since_the_question_it_answers_and_those_of_earlier_turns_apart() {
    // a conversation in its third turn: two results in turn 1, one in turn 2, two since the third question
    String third = "And from abroad?";
    ToolResultTemplate conversation = ToolResultTemplate.of(new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ChatMessage.UserMessage("17 * 23?"), new ToolResultMessage("c1", "calculator", "391"),
            new ToolResultMessage("c2", "calculator", "757"), new ChatMessage.AssistantMessage("757", List.of()),
            new ChatMessage.UserMessage("And in a normal year?"), new ToolResultMessage("c3", "calculator", "756"),
            new ChatMessage.AssistantMessage("756", List.of()), new ChatMessage.UserMessage(third),
            new ToolResultMessage("c4", "read_document", "no such document"),
            new ToolResultMessage("c5", "read_document", POLICY)),
        List.of(), new ModelRequest.RunInfo("r", third, 7, 0)));

    // the scenario of the third question reads its own results, as in a first turn
    assertThat(conversation.fill("{{line:2:from abroad}}"))
        .isEqualTo("Remote work from abroad is allowed for up to 30 working days per year.");
    assertThat(conversation.fill("{{result:1}}")).isEqualTo("no such document");
    // and what earlier turns computed, oldest first
    assertThat(conversation.fill("{{earlier-number:1}}, {{earlier-number:2}}, {{earlier-result:3}}"))
        .isEqualTo("391, 757, 756");
    assertThat(conversation.fill("{{earlier-number:4}}")).isEqualTo("(no result 4)");
    // a first question has no earlier results
    assertThat(template.fill("{{earlier-result:1}}")).isEqualTo("(no result 1)");
  }

  @Test
  void should_find_words_wherever_the_prompt_shows_them_and_say_when_it_does_not() {
    ToolResultTemplate digested = ToolResultTemplate.of(new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ChatMessage.SystemMessage("The vault code is secret."),
            new ChatMessage.UserMessage("Which code opens the vault?"),
            new ChatMessage.UserMessage("[AgentLoop] Digest of steps 2-9:\n- #3 read_document({}) -> Memo. The VAULT CODE"
                + " is 4711. Keep it safe.\n- #5 calculator({}) -> 2"),
            new ToolResultMessage("c9", "read_document", "The vault code is 1234.")),
        List.of(), new ModelRequest.RunInfo("r", "Which code opens the vault?", 10, 0)));

    // the first place in the prompt's order: the digest before a later result, never the system prompt
    assertThat(digested.fill("The {{find:vault code is}}")).isEqualTo("The VAULT CODE is 4711.");
    assertThat(digested.fill("{{find:door code}}")).isEqualTo("(not in the prompt: door code)");
    assertThat(digested.fillJson("{\"q\": \"{{find:keep it}}\"}")).isEqualTo("{\"q\": \"Keep it safe.\"}");
    assertThat(digested.fillJson("{\"page\": \"{{turn}}\"}")).isEqualTo("{\"page\": \"10\"}");
  }
}
