package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.llm.Money;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import java.time.Instant;

/**
 * One step in a trace response.
 *
 * @param cost what the call that wrote the step cost (a model call's latency and tokens, a tool call's
 *     latency), {@code null} for steps without a call of their own
 * @param money what the model call that wrote the step cost by the price table ({@code agentloop.llm.prices}),
 *     and without the prompt cache; {@code null} for other steps, without a price table, or for a call it cannot price
 * @param prompt whether the prompt of the model call that wrote it can be read at
 *     {@code /runs/{id}/steps/{no}/prompt}
 */
record StepView(
    int id,
    Integer parent,
    StepKind kind,
    int turn,
    StepStatus status,
    String author,
    Instant createdAt,
    Integer supersedes,
    String reason,
    JsonNode content,
    StepCost cost,
    Money money,
    boolean prompt) {

  static StepView of(Step step) {
    return of(step, null, null, false);
  }

  static StepView of(Step step, StepCost cost, Money money, boolean prompt) {
    return new StepView(step.stepNo(), step.parentNo(), step.kind(), step.turn(), step.status(), step.author(),
        step.createdAt(), step.supersedes(), step.reason(), step.json(), cost, money, prompt);
  }
}
