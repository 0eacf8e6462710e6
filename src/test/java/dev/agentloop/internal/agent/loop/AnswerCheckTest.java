package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.agent.definition.AnswerSchema;
import dev.agentloop.internal.agent.definition.AnswerSettings;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepContent;
import dev.agentloop.spi.ModelReply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A final answer against an answer schema: read leniently, repaired within its budget, never passed when invalid. */
class AnswerCheckTest {

  private static final AnswerSettings ANSWERS = new AnswerSettings(AnswerSchema.parse("{\"type\": \"object\","
      + " \"properties\": {\"category\": {\"type\": \"string\", \"enum\": [\"refund\", \"defect\"]}},"
      + " \"required\": [\"category\"]}"), 2);

  @Test
  void should_take_an_object_in_prose_or_a_fence_as_the_answers_fields() {
    for (String text : List.of("{\"category\": \"refund\"}", "```json\n{\"category\": \"refund\",}\n```",
        "The ticket: {\"category\": \"refund\"} – that is all.", "Note {not json}; then {\"category\": \"refund\"}")) {
      ModelTurn turn = check(text, List.of());

      assertThat(turn.finalAnswer()).as(text).isEqualTo(text);
      FinalAnswer answer = (FinalAnswer) turn.steps().get(0).content();
      assertThat(answer.data().path("category").asText()).as(text).isEqualTo("refund");
      assertThat(answer.text()).as("kept as the model wrote it").isEqualTo(text);
    }
  }

  @Test
  void should_send_a_violation_back_until_the_repairs_are_used_up_then_leave_naming_the_field() {
    List<Step> recent = new ArrayList<>();

    ModelTurn first = check("{\"category\": \"lost\"}", recent);
    assertThat(first.finalAnswer()).isNull();
    assertThat(first.leave()).isNull();
    assertThat(first.steps()).extracting(NewStep::kind).containsExactly(StepKind.THOUGHT, StepKind.OBSERVATION);
    assertThat(((Observation) first.steps().get(1).content()).error()).startsWith("your final answer does not match"
        + " the answer schema: /category: does not have a value in the enumeration [\"refund\", \"defect\"]");

    recent.addAll(stored(first));
    assertThat(check("{\"category\": \"lost\"}", recent).leave()).isNull();
    recent.addAll(stored(check("no JSON at all", recent)));

    ModelTurn third = check("{}", recent);
    assertThat(third.finalAnswer()).isNull();
    assertThat(third.leave()).startsWith("The model's final answer did not match the agent's answer schema, also"
        + " after 2 repairs (maxAnswerRepairs 2): required property 'category' not found");
  }

  @Test
  void should_give_the_repairs_again_after_a_persons_note() {
    List<Step> recent = new ArrayList<>(stored(check("{}", List.of())));
    recent.addAll(stored(check("{}", recent)));
    recent.add(step(recent.size() + 1, new HumanInput("the category is one of refund or defect")));

    assertThat(AnswerCheck.repairsSoFar(recent)).isZero();
    assertThat(check("{}", recent).leave()).isNull();
  }

  private static ModelTurn check(String text, List<Step> recent) {
    ModelTurn turn = ReplyInterpreter.interpret(new ModelReply(text, List.of(), 0), 1, 10_000);
    return AnswerCheck.check(turn, ANSWERS, recent, "run-1");
  }

  private static List<Step> stored(ModelTurn turn) {
    List<Step> steps = new ArrayList<>();
    for (NewStep step : turn.steps()) {
      steps.add(step(steps.size() + 1, step.content()));
    }
    return steps;
  }

  private static Step step(int number, StepContent content) {
    return new Step("run-1", number, null, 1, content, StepStatus.ACTIVE, "model", Instant.EPOCH, null, null);
  }
}
