package dev.agentloop.llm;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Which chat model serves the agents ({@code agentloop.llm.*}, bound by package {@code config};
 * validated there, with Bean Validation, when the application starts). Immutable.
 *
 * @param provider which model the agents use; no default: an application without a {@link ChatModel} bean of
 *     its own must choose one, or it does not start
 */
public record LlmSettings(
    Provider provider,
    String baseUrl,
    /* only from the environment or a properties source; never written to variables, trace or logs */
    String apiKey,
    String model,
    @NotNull Duration timeout,
    Double temperature,
    @Positive int maxConcurrentCalls,
    @NotNull @Valid @NestedConfigurationProperty Scripted scripted,
    @NotNull @Valid @NestedConfigurationProperty Anthropic anthropic) {

  /** {@code LANGCHAIN4J}: the application's own LangChain4j {@code ChatModel} bean (one, or one marked primary). */
  public enum Provider { SCRIPTED, OPENAI, ANTHROPIC, LANGCHAIN4J }

  /**
   * Anthropic's Messages API ({@code provider: anthropic}); model, key, timeout and temperature are
   * the {@code agentloop.llm.*} ones.
   *
   * @param baseUrl the API's base, to which {@code messages} is appended
   * @param maxTokens the most tokens one reply may have (Anthropic requires a limit)
   * @param thinkingBudgetTokens tokens for extended thinking; 0 turns it off. Must be less than {@code maxTokens}
   */
  public record Anthropic(@NotBlank String baseUrl, @Positive int maxTokens, @PositiveOrZero int thinkingBudgetTokens) {}

  /**
   * The scripted model: a JSON script resource, see {@code llm.scripted.Script}.
   *
   * @param script where the script is, e.g. {@code classpath:scripts/my-script.json}; needed with provider scripted
   */
  public record Scripted(String script) {}

  @Override
  public String toString() {
    return "Llm[provider=" + provider + ", baseUrl=" + baseUrl + ", model=" + model + ", apiKey=***]";
  }
}
