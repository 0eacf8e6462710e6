package dev.agentloop.internal.llm;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * What one model's tokens cost, per million tokens, in {@code agentloop.llm.price-currency}: an entry of
 * {@code agentloop.llm.prices}, copied from the provider's price list. Immutable.
 *
 * @param input a prompt token that no cache served or stored; required
 * @param cachedInput a prompt token read from the provider's prompt cache; empty: calls that read from the cache
 *     are not priced (rather than priced as something they are not)
 * @param cacheWrite a prompt token written to the provider's prompt cache (Anthropic's cache writes); empty:
 *     calls that wrote to the cache are not priced
 * @param output a completion token, reasoning included; required
 */
public record ModelPrice(BigDecimal input, BigDecimal cachedInput, BigDecimal cacheWrite, BigDecimal output) {

  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  public ModelPrice {
    requirePrice(input, "input", true);
    requirePrice(cachedInput, "cached-input", false);
    requirePrice(cacheWrite, "cache-write", false);
    requirePrice(output, "output", true);
  }

  /**
   * What a call cost, or empty when it used tokens of a kind this price leaves open.
   *
   * @param prompt all prompt tokens, {@code cacheRead} and {@code cacheWrite} among them
   */
  public Optional<BigDecimal> cost(long prompt, long cacheRead, long cacheWrite, long completion) {
    if (cacheRead > 0 && cachedInput == null || cacheWrite > 0 && this.cacheWrite == null) {
      return Optional.empty();
    }
    BigDecimal cost = input.multiply(BigDecimal.valueOf(prompt - cacheRead - cacheWrite))
        .add(output.multiply(BigDecimal.valueOf(completion)));
    if (cacheRead > 0) {
      cost = cost.add(cachedInput.multiply(BigDecimal.valueOf(cacheRead)));
    }
    if (cacheWrite > 0) {
      cost = cost.add(this.cacheWrite.multiply(BigDecimal.valueOf(cacheWrite)));
    }
    return Optional.of(perMillion(cost));
  }

  /** What the same tokens would have cost with no prompt cache: every prompt token at the input price. */
  public BigDecimal costWithoutCache(long prompt, long completion) {
    return perMillion(input.multiply(BigDecimal.valueOf(prompt)).add(output.multiply(BigDecimal.valueOf(completion))));
  }

  private static BigDecimal perMillion(BigDecimal cost) {
    return cost.divide(MILLION);
  }

  private static void requirePrice(BigDecimal price, String name, boolean required) {
    if (price == null && required) {
      throw new IllegalArgumentException("a model's price needs " + name + " (per million tokens)");
    }
    if (price != null && price.signum() < 0) {
      throw new IllegalArgumentException(name + " must not be negative, but was " + price);
    }
  }
}
