package dev.agentloop.internal.llm;

import java.util.Map;
import java.util.Optional;

/**
 * The price table ({@code agentloop.llm.prices}): turns a model call's tokens into money, by the exact name
 * of the model its step shows. A call of a model without a price, or without its prompt and completion
 * tokens, has no price: AgentLoop never makes one up. Immutable; thread-safe.
 */
public final class ModelPrices {

  private final Map<String, ModelPrice> prices;
  private final String currency;

  public ModelPrices(Map<String, ModelPrice> prices, String currency) {
    this.prices = Map.copyOf(prices);
    this.currency = currency;
  }

  public static ModelPrices of(LlmSettings llm) {
    return new ModelPrices(llm.prices(), llm.priceCurrency());
  }

  /** Whether any model has a price. */
  public boolean any() {
    return !prices.isEmpty();
  }

  public Optional<ModelPrice> of(String model) {
    return model == null ? Optional.empty() : Optional.ofNullable(prices.get(model));
  }

  /**
   * What one call cost; empty when its model has no price, a count is missing, or it used tokens of a kind
   * the model's price leaves open.
   *
   * @param prompt all prompt tokens, those of the cache among them
   * @param cacheRead {@code null}: the provider said nothing of a cache, read as none
   */
  public Optional<Money> cost(String model, Long prompt, Long cacheRead, Long cacheWrite, Long completion) {
    if (prompt == null || completion == null) {
      return Optional.empty();
    }
    long read = cacheRead == null ? 0 : cacheRead;
    long written = cacheWrite == null ? 0 : cacheWrite;
    return of(model).flatMap(price -> price.cost(prompt, read, written, completion)
        .map(amount -> new Money(amount, price.costWithoutCache(prompt, completion), currency)));
  }

  public String currency() {
    return currency;
  }
}
