package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.Usage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * What model calls used and cost, by agent and model, in Micrometer (and so in {@code /actuator/prometheus}):
 * <ul>
 *   <li>{@code agentloop.tokens} (counter; agent, model, kind): {@code input} (prompt tokens no cache served
 *       or stored), {@code cache_read}, {@code cache_write}, {@code output}; the four make up all the tokens;
 *   <li>{@code agentloop.cost} (counter; agent, model, currency): the money of the calls the price table
 *       prices; a call it cannot price adds nothing (never a made-up price).
 * </ul>
 * Counted when a call's steps are handed to the trace, once per call. A model is tagged {@code unknown} where
 * the adapter named none. Thread-safe.
 */
public final class CostMeter {

  static final String UNKNOWN_MODEL = "unknown";

  private final ModelPrices prices;
  private final MeterRegistry registry;

  public CostMeter(ModelPrices prices, MeterRegistry registry) {
    this.prices = Objects.requireNonNull(prices, "prices");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  void record(String agentKey, Usage usage) {
    for (StepCost cost : usage.costs()) {
      if (cost != null && cost.modelCall()) {
        record(agentKey, cost);
      }
    }
  }

  private void record(String agentKey, StepCost cost) {
    String model = cost.model() == null ? UNKNOWN_MODEL : cost.model();
    long read = cost.cacheReadTokens() == null ? 0 : cost.cacheReadTokens();
    long written = cost.cacheWriteTokens() == null ? 0 : cost.cacheWriteTokens();
    if (cost.promptTokens() != null) {
      tokens(agentKey, model, "input", cost.promptTokens() - read - written);
    }
    tokens(agentKey, model, "cache_read", read);
    tokens(agentKey, model, "cache_write", written);
    if (cost.completionTokens() != null) {
      tokens(agentKey, model, "output", cost.completionTokens());
    }
    prices.cost(cost.model(), cost.promptTokens(), cost.cacheReadTokens(), cost.cacheWriteTokens(),
        cost.completionTokens()).ifPresent(money ->
        Counter.builder("agentloop.cost").description("What model calls cost by the price table")
            .tags("agent", agentKey, "model", model, "currency", money.currency()).register(registry)
            .increment(money.amount().doubleValue()));
  }

  private void tokens(String agentKey, String model, String kind, long count) {
    if (count > 0) {
      Counter.builder("agentloop.tokens").description("Tokens of model calls, by kind")
          .tags("agent", agentKey, "model", model, "kind", kind).register(registry).increment(count);
    }
  }
}
