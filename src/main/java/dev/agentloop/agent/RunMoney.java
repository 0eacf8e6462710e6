package dev.agentloop.agent;

import dev.agentloop.llm.Money;
import dev.agentloop.llm.ModelPrices;
import dev.agentloop.trace.StepCost;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Optional;

/**
 * What a run's model calls cost by the price table ({@code agentloop.llm.prices}), superseded branches
 * included, and what they would have cost with no prompt cache. Calls the table cannot price (a model
 * without a price, no token counts) are counted apart, never guessed.
 *
 * @param amount the sum over the priced calls; {@code null} when no call could be priced
 * @param withoutCache what the priced calls would have cost with every prompt token at the input price;
 *     {@code null} likewise
 * @param unpricedModelCalls the model calls in neither sum
 */
public record RunMoney(BigDecimal amount, BigDecimal withoutCache, String currency, int unpricedModelCalls) {

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
