package dev.agentloop.internal.llm;

import dev.agentloop.spi.ChatModel;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which chat model serves the agents ({@code agentloop.llm.*}, bound by package {@code config};
 * validated there, with Bean Validation, when the application starts). Immutable.
 *
 * @param provider which model the agents use; no default: an application without a `ChatModel` bean of
 *     its own must choose one, or it does not start
 * @param baseUrl the endpoint of provider openai: any OpenAI-compatible chat completions API
 * @param apiKey the key of the model endpoint; set it in the environment (AGENTLOOP_LLM_API_KEY), never in a
 *     file; never written to variables, trace or logs
 * @param model the model's name at the provider
 * @param timeout how long one model call may take, a streamed reply to its end
 * @param temperature the sampling temperature; empty: the provider's default
 * @param maxConcurrentCalls threads of provider langchain4j, whose model blocks a thread per call; the other
 *     providers hold no thread while a call is under way
 * @param limits what the model endpoint's provider allows: calls under way at once, requests and tokens per minute
 * @param prices what models' tokens cost per million, by model name exactly as a step shows it (the configured
 *     model for providers openai and anthropic); empty: token counts only, never a made-up price
 * @param priceCurrency the currency of `agentloop.llm.prices`, as Cockpit shows it
 * @param answerFormat how providers openai and langchain4j ask for an agent's answer schema: json-schema (the
 *     schema, strict where it allows) or json-object (JSON of any shape, for servers that know no schemas; the
 *     schema is still in the instructions and every answer is validated against it)
 * @param stream whether providers openai and anthropic stream their replies: the text goes to the run's followers
 *     (`/api/runs/{id}/events`) while the model writes it, and bytes keep flowing through proxies that close quiet
 *     connections; the reply a run gets is the same either way. Off: one body per reply, for endpoints or proxies
 *     that cannot stream
 */
public record LlmSettings(
    Provider provider,
    @DefaultValue("https://api.openai.com/v1") String baseUrl,
    /* only from the environment or a properties source; never written to variables, trace or logs */
    String apiKey,
    @DefaultValue("gpt-4o-mini") String model,
    @DefaultValue("PT60S") @NotNull Duration timeout,
    Double temperature,
    @DefaultValue("16") @Positive int maxConcurrentCalls,
    @NotNull @Valid @NestedConfigurationProperty Limits limits,
    @NotNull @Valid @NestedConfigurationProperty Scripted scripted,
    @NotNull @Valid @NestedConfigurationProperty Anthropic anthropic,
    Map<String, @Valid ModelPrice> prices,
    @DefaultValue("USD") @NotBlank String priceCurrency,
    @DefaultValue("json-schema") @NotNull AnswerFormatType answerFormat,
    @DefaultValue("true") boolean stream) {

  public LlmSettings {
    prices = prices == null ? Map.of() : Map.copyOf(prices);
  }

  /** How an answer schema is asked for where a provider knows several ways. */
  public enum AnswerFormatType { JSON_SCHEMA, JSON_OBJECT }

  /** {@code LANGCHAIN4J}: the application's own LangChain4j {@code ChatModel} bean (one, or one marked primary). */
  public enum Provider { SCRIPTED, OPENAI, ANTHROPIC, LANGCHAIN4J }

  /**
   * Anthropic's Messages API ({@code provider: anthropic}); model, key, timeout and temperature are
   * the {@code agentloop.llm.*} ones.
   *
   * @param baseUrl the API's base, to which the path `messages` is appended
   * @param maxTokens the most tokens one reply may have (Anthropic requires a limit)
   * @param thinkingBudgetTokens tokens for extended thinking; 0 turns it off. Must be less than `max-tokens`
   */
  public record Anthropic(
      @DefaultValue("https://api.anthropic.com/v1/") @NotBlank String baseUrl,
      @DefaultValue("4096") @Positive int maxTokens,
      @DefaultValue("0") @PositiveOrZero int thinkingBudgetTokens) {}

  /**
   * What the model endpoint's provider allows. Calls beyond it wait in a queue, in the order of their runs and
   * holding no thread, before their time-out starts; the worker takes no more steps than can start, and the rest
   * wait in the database. The provider's own {@code Retry-After} and rate-limit headers pause the calls too.
   *
   * @param maxInFlight calls under way at once; empty: 256 for providers openai and anthropic, max-concurrent-calls
   *     for langchain4j, no limit for scripted (and for an application's own model, 256); 0: no limit
   * @param requestsPerMinute requests sent in any minute at most, e.g. the provider's RPM limit; 0: no limit
   * @param tokensPerMinute prompt and reply tokens in any minute at most, e.g. the provider's TPM limit (a call
   *     counts its estimated prompt until the reply says what it cost); 0: no limit
   */
  public record Limits(
      @PositiveOrZero Integer maxInFlight,
      @DefaultValue("0") @PositiveOrZero int requestsPerMinute,
      @DefaultValue("0") @PositiveOrZero int tokensPerMinute) {

    /** Calls under way at once for this provider (see {@code maxInFlight}); 0: no limit. */
    public int maxInFlight(Provider provider, int maxConcurrentCalls) {
      if (maxInFlight != null) {
        return maxInFlight;
      }
      return provider == null ? DEFAULT_MAX_IN_FLIGHT : switch (provider) {
        case SCRIPTED -> 0;
        case LANGCHAIN4J -> maxConcurrentCalls;
        case OPENAI, ANTHROPIC -> DEFAULT_MAX_IN_FLIGHT;
      };
    }
  }

  /** Calls under way at once at a provider's endpoint unless {@code limits.max-in-flight} says otherwise. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 256;

  /**
   * The scripted model: a JSON script resource, see {@code llm.scripted.Script}.
   *
   * @param script where the script is, e.g. `classpath:scripts/my-script.json`; needed with provider scripted
   */
  public record Scripted(String script) {}

  @Override
  public String toString() {
    return "Llm[provider=" + provider + ", baseUrl=" + baseUrl + ", model=" + model + ", apiKey=***]";
  }
}
