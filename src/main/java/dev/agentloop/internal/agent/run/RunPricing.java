package dev.agentloop.internal.agent.run;

import dev.agentloop.api.RunMoney;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.llm.Money;
import dev.agentloop.internal.trace.StepCost;
import java.util.Collection;
import java.util.Optional;

/** Turns the recorded cost of model calls into money by the price table ({@code agentloop.llm.prices}). */
public final class RunPricing {

  private RunPricing() {}

  /** The run's money, or {@code null} when the application has no price table. */
  static RunMoney of(Collection<StepCost> costs, ModelPrices prices) {
    if (!prices.any()) {
      return null;
    }
    Money sum = null;
    int unpriced = 0;
    for (StepCost cost : costs) {
      if (!cost.modelCall()) {
        continue;
      }
      Optional<Money> money = ofStep(cost, prices);
      if (money.isEmpty()) {
        unpriced++;
      } else {
        sum = sum == null ? money.get() : sum.plus(money.get());
      }
    }
    return new RunMoney(sum == null ? null : sum.amount(), sum == null ? null : sum.withoutCache(), prices.currency(),
        unpriced);
  }

  /** What one step's model call cost, empty for a tool call or a call the table cannot price. */
  public static Optional<Money> ofStep(StepCost cost, ModelPrices prices) {
    if (cost == null || !cost.modelCall()) {
      return Optional.empty();
    }
    return prices.cost(cost.model(), cost.promptTokens(), cost.cacheReadTokens(), cost.cacheWriteTokens(),
        cost.completionTokens());
  }
}
