package dev.agentloop.api;

import java.math.BigDecimal;

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
}
