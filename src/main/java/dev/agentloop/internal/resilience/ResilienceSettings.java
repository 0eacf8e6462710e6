package dev.agentloop.internal.resilience;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How model and tool calls are guarded (package {@code dev.agentloop.internal.resilience}): which errors
 * are transient, how they are retried, and when a circuit breaker opens. Bound from
 * {@code agentloop.resilience.*} and validated by package {@code config}. Immutable.
 *
 * @param unknownErrors what an error of no known class counts as: retried (transient) or not (persistent)
 * @param transientPatterns regular expressions; an error whose message matches one is transient
 * @param persistentPatterns regular expressions; an error whose message matches one is persistent (checked first)
 * @param toolBreakers breaker settings of single tools, by tool name, instead of `tool-breaker`
 * @param finalAnswerAt the share of a budget (model calls, tool calls, tokens) from which the model is asked
 *     for its final answer
 * @param loopWindow how many of the latest tool calls the loop detector looks at
 * @param loopMaxCycleLength the longest cycle of different calls (A, B, C, A, B, C) the loop detector looks for
 */
public record ResilienceSettings(
    @DefaultValue("persistent") @NotNull UnknownErrors unknownErrors,
    @DefaultValue({"(?i)\\b(temporar(il)?y unavailable|try again|rate.?limit(ed)?|too many requests"
        + "|connection (reset|refused)|service unavailable|gateway time-?out)\\b", "\\bHTTP (408|425|429|50[0-4])\\b"})
    @NotNull List<String> transientPatterns,
    @NotNull List<String> persistentPatterns,
    @NotNull @Valid @NestedConfigurationProperty RetrySettings retry,
    @NotNull @Valid @NestedConfigurationProperty BreakerSettings toolBreaker,
    Map<String, @Valid BreakerSettings> toolBreakers,
    @NotNull @Valid @NestedConfigurationProperty BreakerSettings modelBreaker,
    @DefaultValue("0.9") @DecimalMin("0.1") @DecimalMax("1") double finalAnswerAt,
    @DefaultValue("20") @Positive int loopWindow,
    @DefaultValue("10") @Min(2) int loopMaxCycleLength) {

  public ResilienceSettings {
    transientPatterns = transientPatterns == null ? List.of() : List.copyOf(transientPatterns);
    persistentPatterns = persistentPatterns == null ? List.of() : List.copyOf(persistentPatterns);
    toolBreakers = toolBreakers == null ? Map.of() : Map.copyOf(toolBreakers);
  }

  /** What an error that is neither known transient nor known persistent counts as. */
  public enum UnknownErrors { TRANSIENT, PERSISTENT }
}
