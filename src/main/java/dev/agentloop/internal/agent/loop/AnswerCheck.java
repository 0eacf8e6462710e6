package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AnswerSettings;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A final answer against the agent's answer schema. The object is read leniently ({@link LenientJson}: prose or a
 * fence around it, trailing commas); a valid one becomes the answer's fields. One that breaks the schema, or holds
 * no object, is no answer: its text stays as a thought, and the validator's message goes back to the model as an
 * observation to repair it, each repair a model call of the run's budget. When the repairs are used up — counted
 * since the turn's question or a person's last note, so that guidance gives the model its repairs again — the run
 * leaves its loop for a person, the message naming the fields. An answer never ends without valid fields.
 */
final class AnswerCheck {

  private static final Logger LOG = LoggerFactory.getLogger(AnswerCheck.class);
  private static final int VIOLATIONS_SHOWN = 10;

  private AnswerCheck() {}

  /**
   * @param turn an interpreted reply that is a final answer
   * @param recent the run's recent steps, to count the repairs already made
   */
  static ModelTurn check(ModelTurn turn, AnswerSettings answers, List<Step> recent, String runId) {
    FinalAnswer answer = (FinalAnswer) turn.steps().get(0).content();
    JsonNode data = LenientJson.objectWithin(answer.text());
    List<String> violations = data == null
        ? List.of("your final answer holds no JSON object; give it as one JSON object that matches the answer schema")
        : answers.schema().violations(data);
    if (violations.isEmpty()) {
      return new ModelTurn(List.of(Steps.finalAnswer(new FinalAnswer(answer.text(), answer.reasoning(),
          answer.stopReason(), data))), List.of(), turn.finalAnswer());
    }
    String found = String.join("; ", violations.subList(0, Math.min(VIOLATIONS_SHOWN, violations.size())))
        + (violations.size() > VIOLATIONS_SHOWN ? "; and " + (violations.size() - VIOLATIONS_SHOWN) + " more" : "");
    int repairs = repairsSoFar(recent);
    List<NewStep> steps = List.of(Steps.thought(answer.text(), answer.reasoning(), answer.stopReason()),
        Steps.observation(Observation.invalidAnswer("your final answer does not match the answer schema: " + found
            + ". Give your final answer again, as one JSON object that matches the schema."), Steps.AGENTLOOP));
    if (repairs < answers.maxRepairs()) {
      return new ModelTurn(steps, List.of(), null);
    }
    LOG.info("AGENTLOOP-401 run {}: the final answer still breaks the answer schema after {} repairs ({}); the run"
        + " leaves its loop for a person", runId, repairs, found);
    return new ModelTurn(steps, List.of(), null, "The model's final answer did not match the agent's"
        + " answer schema" + (repairs == 0 ? "" : ", also after " + repairs + (repairs == 1 ? " repair" : " repairs"))
        + " (maxAnswerRepairs " + answers.maxRepairs() + "): " + found + ". Guide the agent with a note on the fields,"
        + " edit a step, or stop the run.");
  }

  /** The answers that broke the schema since the turn's question or a person's last note. */
  static int repairsSoFar(List<Step> recent) {
    int repairs = 0;
    for (int i = recent.size() - 1; i >= 0; i--) {
      Step step = recent.get(i);
      if (step.kind() == StepKind.HUMAN_INPUT) {
        break;
      }
      if (step.content() instanceof Observation observation
          && Observation.INVALID_ANSWER.equals(observation.failure())) {
        repairs++;
      }
    }
    return repairs;
  }
}
