package dev.agentloop.internal.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The forms have numbered slots (tool1 … tool5, answer1 … answer5) that only the code's limits give
 * meaning: a person approves at most {@link ActionApproval#FORM_CALLS} calls in one form, and the
 * ask_human tool asks at most {@link AskHumanTool#MAX_QUESTIONS} questions. Change one without the
 * other and calls or answers would have no field; this keeps them in step.
 */
class FormSlotsTest {

  private static final Path FORMS = Path.of("forms");
  /** The forms where a person may edit one of the newest steps, each offered as a field of its own. */
  private static final Set<String> STEP_EDIT_FORMS = Set.of("react-agent-review-answer.form",
      "react-agent-agent-stuck.form");
  /** A name with a number at its end, in a field key, a component id, a template or an expression. */
  private static final Pattern NUMBERED = Pattern.compile("\\b([A-Za-z]+)([1-9][0-9]*)\\b");

  @Test
  void should_have_one_slot_of_the_approval_form_for_each_call_a_person_may_approve() throws IOException {
    Map<String, Set<Integer>> slots = numberedSlots("react-agent-approve-action.form");

    assertThat(slots).containsKeys("tool", "arguments", "decision", "reason");
    assertThat(slots).allSatisfy((name, numbers) ->
        assertThat(numbers).as(name).isEqualTo(oneTo(ActionApproval.FORM_CALLS)));
  }

  @Test
  void should_have_one_slot_of_the_ask_human_form_for_each_question_the_tool_may_ask() throws IOException {
    Map<String, Set<Integer>> slots = numberedSlots("react-agent-ask-human.form");

    assertThat(slots).containsKeys("question", "answer");
    assertThat(slots).allSatisfy((name, numbers) ->
        assertThat(numbers).as(name).isEqualTo(oneTo(AskHumanTool.MAX_QUESTIONS)));
  }

  @Test
  void should_have_one_slot_of_the_forms_that_edit_a_step_for_each_step_offered() throws IOException {
    for (String form : STEP_EDIT_FORMS) {
      Map<String, Set<Integer>> slots = numberedSlots(form);

      // the answer review has the answer's fields besides: one slot per property, as many as AnswerFields offers
      assertThat(slots).as(form).containsKeys("editLabel", "editContent");
      slots.forEach((name, numbers) -> assertThat(numbers).as(form + ": " + name)
          .isEqualTo(oneTo(name.startsWith("answer") ? AnswerFields.SLOTS : FormStepEdit.SLOTS)));
    }
  }

  @Test
  void should_have_no_numbered_slots_in_the_other_forms() throws IOException {
    try (Stream<Path> forms = Files.list(FORMS)) {
      Set<String> others = forms.map(form -> form.getFileName().toString()).filter(name -> name.endsWith(".form"))
          .filter(name -> !name.equals("react-agent-approve-action.form") && !name.equals("react-agent-ask-human.form")
              && !STEP_EDIT_FORMS.contains(name))
          .collect(Collectors.toSet());

      assertThat(others).isNotEmpty();
      for (String form : others) {
        assertThat(numberedSlots(form)).as(form).isEmpty();
      }
    }
  }

  /** Every numbered name in the form's texts (read as JSON: it must be valid), with the numbers it appears with. */
  private static Map<String, Set<Integer>> numberedSlots(String form) throws IOException {
    Map<String, Set<Integer>> slots = new TreeMap<>();
    collect(new ObjectMapper().readTree(FORMS.resolve(form).toFile()), slots);
    return slots;
  }

  private static void collect(JsonNode node, Map<String, Set<Integer>> slots) {
    if (node.isTextual()) {
      Matcher matcher = NUMBERED.matcher(node.asText());
      while (matcher.find()) {
        slots.computeIfAbsent(matcher.group(1), name -> new TreeSet<>()).add(Integer.parseInt(matcher.group(2)));
      }
    }
    node.forEach(child -> collect(child, slots));
  }

  private static Set<Integer> oneTo(int last) {
    return IntStream.rangeClosed(1, last).boxed().collect(Collectors.toCollection(TreeSet::new));
  }
}
