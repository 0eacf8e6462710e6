package dev.agentloop.internal.config;

import dev.agentloop.internal.tool.a2a.A2aAgentSettings;
import dev.agentloop.internal.tool.mcp.McpServerSettings;
import jakarta.validation.Valid;
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
 * @param a2a remote A2A agents by name, which agents call as the tool {@code <name>}
 */
public record ToolSettings(
    @DefaultValue("PT30S") @NotNull Duration timeout,
    @DefaultValue("8") @Positive int maxConcurrent,
    Map<String, Boolean> approval,
    Map<String, @Valid Remote> remote,
    @NotNull @Valid @NestedConfigurationProperty HttpGet httpGet,
    @NotNull @Valid @NestedConfigurationProperty ReadDocument readDocument,
    Map<String, McpServerSettings> mcp,
    Map<String, A2aAgentSettings> a2a) {

  public ToolSettings {
    approval = approval == null ? Map.of() : Map.copyOf(approval);
    remote = remote == null ? Map.of() : Map.copyOf(remote);
    // in the order configured: servers start in this order
    mcp = mcp == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(mcp));
    a2a = a2a == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(a2a));
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
}
