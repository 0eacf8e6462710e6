package dev.agentloop.internal.llm;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What model calls cost by the price table, and what they would have cost if no prompt cache had served
 * or stored any of their prompt tokens. Immutable.
 *
 * @param amount what the calls cost
 * @param withoutCache what they would have cost with every prompt token at the input price
 * @param currency the price table's currency ({@code agentloop.llm.price-currency})
 */
public record Money(BigDecimal amount, BigDecimal withoutCache, String currency) {

  public Money {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(withoutCache, "withoutCache");
    Objects.requireNonNull(currency, "currency");
  }

  public Money plus(Money other) {
    return new Money(amount.add(other.amount), withoutCache.add(other.withoutCache), currency);
  }
}
