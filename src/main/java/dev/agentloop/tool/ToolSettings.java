package dev.agentloop.tool;

import dev.agentloop.tool.mcp.McpServerSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Built-in tools and how tools are run ({@code agentloop.tools.*}, bound and validated by package
 * {@code config}). Immutable.
 *
 * @param approval per tool name whether a person approves its calls; a tool not named here needs
 *     approval exactly when it has side effects
 * @param remote tools served by remote workers on topic {@code agentloop.tool.<name>}, by name
 * @param mcp MCP servers by name, whose tools agents call as {@code <server>__<tool>}
 */
public record ToolSettings(
    @NotNull Duration timeout,
    @Positive int maxConcurrent,
    Map<String, Boolean> approval,
    Map<String, @Valid Remote> remote,
    @NotNull @Valid @NestedConfigurationProperty HttpGet httpGet,
    @NotNull @Valid @NestedConfigurationProperty ReadDocument readDocument,
    @NotNull @Valid @NestedConfigurationProperty Flaky flaky,
    Map<String, McpServerSettings> mcp) {

  public ToolSettings {
    approval = approval == null ? Map.of() : Map.copyOf(approval);
    remote = remote == null ? Map.of() : Map.copyOf(remote);
    // in the order configured: servers start in this order
    mcp = mcp == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(mcp));
  }

  /**
   * A tool a remote worker runs: what the model sees of it, and whether its calls change the world.
   *
   * @param parameters JSON Schema (draft 2020-12) of the arguments object, as JSON text
   */
  public record Remote(@NotBlank String description, @NotBlank String parameters, boolean sideEffects) {}

  public record HttpGet(@NotNull List<String> allowedHosts, @Positive int maxBytes, @NotNull Duration timeout) {}

  public record ReadDocument(@NotBlank String folder, @Positive int maxChars) {}

  /**
   * The flaky test tool: fails at random, for demos and chaos tests. Each call draws once from a
   * random sequence started with {@code seed}: below {@code transientRate} it fails transiently,
   * below the sum with {@code persistentRate} persistently, below the sum with {@code hangRate} it
   * hangs for {@code hang}; otherwise it answers after {@code latency}.
   */
  public record Flaky(
      boolean enabled,
      long seed,
      @DecimalMin("0") @DecimalMax("1") double transientRate,
      @DecimalMin("0") @DecimalMax("1") double persistentRate,
      @DecimalMin("0") @DecimalMax("1") double hangRate,
      @NotNull Duration hang,
      @NotNull Duration latency) {

    @AssertTrue(message = "transient-rate + persistent-rate + hang-rate must be at most 1")
    boolean isRatesAddUp() {
      return transientRate + persistentRate + hangRate <= 1.0;
    }
  }
}
