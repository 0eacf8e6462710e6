package dev.agentloop.internal.tool;

import dev.agentloop.spi.AgentTool;
import java.util.Map;

/**
 * Which tool calls wait for a person's approval: those of tools configured so in
 * {@code agentloop.tools.approval}, and by default those of every tool with side effects.
 * Thread-safe (immutable).
 */
public class ToolApprovals {

  private final ToolRegistry registry;
  private final Map<String, Boolean> configured;

  public ToolApprovals(ToolRegistry registry, Map<String, Boolean> configured) {
    this.registry = registry;
    this.configured = Map.copyOf(configured);
    configured.keySet().stream().filter(name -> !registry.accepts(name)).findFirst().ifPresent(name -> {
      throw new IllegalArgumentException("agentloop.tools.approval names an unknown tool '" + name + "'");
    });
  }

  /**
   * Unknown tools need no approval: their calls are refused anyway. A tool of an MCP server that has
   * not listed its tools yet does: nothing tells yet that it has no side effects.
   */
  public boolean needsApproval(String toolName) {
    Boolean setting = configured.get(toolName);
    if (setting != null) {
      return setting;
    }
    return registry.find(toolName).map(AgentTool::sideEffects).orElseGet(() -> registry.accepts(toolName));
  }
}
