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
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Built-in tools and how tools are run ({@code agentloop.tools.*}, bound and validated by package
 * {@code config}). Immutable.
 *
 * @param timeout how long one tool call may take
 * @param maxConcurrent tool calls running at once on this node
 * @param approval per tool name whether a person approves its calls; a tool not named here needs
 *     approval exactly when it has side effects
 * @param remote tools served by remote workers on topic {@code agentloop.tool.<name>}, by name
 * @param mcp MCP servers by name, whose tools agents call as {@code <server>__<tool>}
 */
public record ToolSettings(
    @DefaultValue("PT30S") @NotNull Duration timeout,
    @DefaultValue("8") @Positive int maxConcurrent,
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

  /**
   * The built-in tool http_get.
   *
   * @param allowedHosts the hosts it may fetch from, e.g. api.example.com; empty allows none
   * @param maxBytes the most bytes of a response it reads
   * @param timeout how long one request may take
   */
  public record HttpGet(@NotNull List<String> allowedHosts, @DefaultValue("200000") @Positive int maxBytes,
      @DefaultValue("PT10S") @NotNull Duration timeout) {}

  /**
   * The built-in tool read_document.
   *
   * @param folder the folder whose documents it reads (nothing outside it)
   * @param maxChars the most characters of a document it returns
   */
  public record ReadDocument(@DefaultValue("./documents") @NotBlank String folder,
      @DefaultValue("100000") @Positive int maxChars) {}

  /**
   * The flaky test tool: fails at random, for demos and chaos tests. Each call draws once from a
   * random sequence started with {@code seed}: below {@code transientRate} it fails transiently,
   * below the sum with {@code persistentRate} persistently, below the sum with {@code hangRate} it
   * hangs for {@code hang}; otherwise it answers after {@code latency}.
   *
   * @param enabled whether the tool flaky is registered (never in production)
   * @param seed the start of its random sequence, so a run of failures can be repeated
   * @param transientRate the share of calls that fail transiently (retried)
   * @param persistentRate the share of calls that fail persistently (not retried)
   * @param hangRate the share of calls that hang
   * @param hang how long a hanging call sleeps (the tool timeout ends it first)
   * @param latency how long an answering call takes
   */
  public record Flaky(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("42") long seed,
      @DefaultValue("0.3") @DecimalMin("0") @DecimalMax("1") double transientRate,
      @DefaultValue("0.1") @DecimalMin("0") @DecimalMax("1") double persistentRate,
      @DefaultValue("0.02") @DecimalMin("0") @DecimalMax("1") double hangRate,
      @DefaultValue("PT1M") @NotNull Duration hang,
      @DefaultValue("PT0S") @NotNull Duration latency) {

    @AssertTrue(message = "transient-rate + persistent-rate + hang-rate must be at most 1")
    boolean isRatesAddUp() {
      return transientRate + persistentRate + hangRate <= 1.0;
    }
  }
}
