package dev.agentloop.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The price table turns a call's tokens into money with and without the prompt cache, and puts no price on a
 * call it cannot price; a price that cannot be right stops the start, naming it.
 */
class ModelPricesTest {

  private final ModelPrices prices = new ModelPrices(Map.of(
      "gpt-4o", new ModelPrice(new BigDecimal("2.50"), new BigDecimal("1.25"), null, new BigDecimal("10")),
      "claude", new ModelPrice(new BigDecimal("3"), new BigDecimal("0.30"), new BigDecimal("3.75"), new BigDecimal("15"))),
      "USD");

  @Test
  void should_price_cached_uncached_and_written_prompt_tokens_apart_and_say_what_it_would_have_cost_without_the_cache() {
    Money openAi = prices.cost("gpt-4o", 1204L, 1024L, null, 20L).orElseThrow();
    assertThat(openAi.amount()).isEqualByComparingTo("0.00193");
    assertThat(openAi.withoutCache()).isEqualByComparingTo("0.00321");
    assertThat(openAi.currency()).isEqualTo("USD");

    // 50 uncached at 3, 1,000 written at 3.75, 20 out at 15 per million
    Money anthropic = prices.cost("claude", 1050L, 0L, 1000L, 20L).orElseThrow();
    assertThat(anthropic.amount()).isEqualByComparingTo("0.00420");
    assertThat(anthropic.withoutCache()).isEqualByComparingTo("0.00345");
  }

  @Test
  void should_put_no_price_on_a_call_it_cannot_price() {
    assertThat(prices.cost("gpt-4o-mini", 100L, 0L, 0L, 10L)).as("a model without a price").isEmpty();
    assertThat(prices.cost(null, 100L, 0L, 0L, 10L)).as("a call whose adapter named no model").isEmpty();
    assertThat(prices.cost("gpt-4o", null, null, null, 10L)).as("no prompt tokens reported").isEmpty();
    assertThat(prices.cost("gpt-4o", 100L, null, null, null)).as("no completion tokens reported").isEmpty();
    assertThat(prices.cost("gpt-4o", 1050L, 0L, 1000L, 20L)).as("cache writes, which gpt-4o's price leaves open")
        .isEmpty();
    assertThat(prices.cost("gpt-4o", 100L, null, null, 10L)).as("nothing said of a cache: none").isPresent();
    assertThat(new ModelPrices(Map.of(), "USD").any()).isFalse();
  }

  @Test
  void should_refuse_a_negative_or_missing_price_naming_it() {
    assertThatThrownBy(() -> new ModelPrice(new BigDecimal("1"), new BigDecimal("-0.5"), null, new BigDecimal("2")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("cached-input must not be negative, but was -0.5");

    // as a start binds it: the failure names the key
    Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
        "agentloop.llm.prices.gpt-4o.input", "2.5", "agentloop.llm.prices.gpt-4o.cached-input", "1.25")));
    assertThatThrownBy(() -> binder.bind("agentloop.llm.prices.gpt-4o", ModelPrice.class))
        .isInstanceOf(BindException.class).hasMessageContaining("agentloop.llm.prices.gpt-4o")
        .rootCause().hasMessage("a model's price needs output (per million tokens)");
  }
}
