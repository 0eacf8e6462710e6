package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlanParserTest {

  @Test
  void should_read_a_json_array_of_strings() {
    assertThat(PlanParser.parse("[\"Read the leave policy\", \"Compute the days\", \"Answer\"]"))
        .containsExactly("Read the leave policy", "Compute the days", "Answer");
  }

  @Test
  void should_read_a_json_array_inside_a_code_fence_and_prose() {
    // given
    String text = """
        Here is my plan:
        ```json
        ["Look up the price", "Multiply by 3"]
        ```
        Let me know if this works.
        """;

    // when
    List<String> plan = PlanParser.parse(text);

    // then
    assertThat(plan).containsExactly("Look up the price", "Multiply by 3");
  }

  @Test
  void should_strip_and_drop_blank_entries_of_a_json_array() {
    assertThat(PlanParser.parse("[\"  first  \", \"\", \"   \", \"second\"]")).containsExactly("first", "second");
  }

  @Test
  void should_read_numbered_lines() {
    assertThat(PlanParser.parse("1. Search the web\n2) Read the page\n10. Answer"))
        .containsExactly("Search the web", "Read the page", "Answer");
  }

  @Test
  void should_read_bulleted_lines() {
    assertThat(PlanParser.parse("- Search\n* Read\n• Answer\n  - Indented"))
        .containsExactly("Search", "Read", "Answer", "Indented");
  }

  @Test
  void should_keep_lines_without_bullets_as_they_are() {
    assertThat(PlanParser.parse("Search the web\n2024 budget review"))
        .containsExactly("Search the web", "2024 budget review");
  }

  @Test
  void should_drop_blank_lines() {
    assertThat(PlanParser.parse("\n1. First\n\n   \n2. Second\n\n")).containsExactly("First", "Second");
  }

  @Test
  void should_drop_bullets_without_text() {
    assertThat(PlanParser.parse("1. First\n-\n2.\n3. Third")).containsExactly("First", "Third");
  }

  @Test
  void should_keep_at_most_max_steps_from_lines() {
    // given
    String text = IntStream.rangeClosed(1, 30).mapToObj(i -> i + ". step " + i).collect(Collectors.joining("\n"));

    // when
    List<String> plan = PlanParser.parse(text);

    // then
    assertThat(plan).hasSize(PlanParser.MAX_STEPS).startsWith("step 1").endsWith("step 20");
  }

  @Test
  void should_keep_at_most_max_steps_from_json() {
    String text = IntStream.rangeClosed(1, 25).mapToObj(i -> "\"s" + i + "\"").collect(Collectors.joining(",", "[", "]"));

    assertThat(PlanParser.parse(text)).hasSize(20).endsWith("s20");
  }

  @Test
  void should_count_max_steps_after_dropping_blank_ones() {
    String text = IntStream.rangeClosed(1, 20).mapToObj(i -> "step " + i + "\n\n").collect(Collectors.joining());

    assertThat(PlanParser.parse(text)).hasSize(20).endsWith("step 20");
  }

  @Test
  void should_cut_an_overlong_step_to_max_step_chars() {
    // given
    String longStep = "x".repeat(PlanParser.MAX_STEP_CHARS + 100);

    // when
    List<String> plan = PlanParser.parse("1. " + longStep + "\n2. short");

    // then
    assertThat(plan).containsExactly("x".repeat(500), "short");
  }

  @Test
  void should_fall_back_to_lines_when_the_json_array_holds_non_strings() {
    assertThat(PlanParser.parse("[\"search\", 2, {\"step\": \"answer\"}]\n- Then answer"))
        .containsExactly("[\"search\", 2, {\"step\": \"answer\"}]", "Then answer");
  }

  @Test
  void should_fall_back_to_lines_when_brackets_are_not_json() {
    assertThat(PlanParser.parse("1. Read [the] policy\n2. Answer [briefly]"))
        .containsExactly("Read [the] policy", "Answer [briefly]");
  }

  @Test
  void should_return_an_empty_plan_for_empty_text() {
    assertThat(PlanParser.parse("")).isEmpty();
    assertThat(PlanParser.parse("  \n \n")).isEmpty();
    assertThat(PlanParser.parse("[]")).isEmpty();
  }
}
