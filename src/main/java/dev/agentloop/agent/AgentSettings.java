package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of one agent: defaults from {@code agentloop.agent.*}, overridden by the extension
 * properties an analyst sets on the agent's tasks in the diagram. Immutable.
 *
 * @param allowedTools tool names the agent may call; {@code ["*"]} allows every registered tool
 */
public record AgentSettings(
    String systemPrompt,
    String plannerPrompt,
    Set<String> allowedTools,
    int maxSteps,
    int contextWindowSteps,
    int observationPromptChars,
    int maxStepChars) {

  public static final String SYSTEM_PROMPT = "systemPrompt";
  public static final String PLANNER_PROMPT = "plannerPrompt";
  public static final String ALLOWED_TOOLS = "allowedTools";
  public static final String MAX_STEPS = "maxSteps";
  public static final String CONTEXT_WINDOW_STEPS = "contextWindowSteps";
  private static final String ALL_TOOLS = "*";

  public AgentSettings {
    allowedTools = Set.copyOf(allowedTools);
  }

  /**
   * @param properties extension properties of the agent's elements
   * @throws InvalidAgentSettingException naming the property when a value cannot be used
   */
  public static AgentSettings of(Map<String, String> properties, AgentLoopProperties.Agent defaults) {
    return new AgentSettings(
        properties.getOrDefault(SYSTEM_PROMPT, defaults.systemPrompt()),
        properties.getOrDefault(PLANNER_PROMPT, defaults.plannerPrompt()),
        toolNames(properties.getOrDefault(ALLOWED_TOOLS, ALL_TOOLS)),
        positive(properties, MAX_STEPS, defaults.maxSteps()),
        positive(properties, CONTEXT_WINDOW_STEPS, defaults.contextWindowSteps()),
        defaults.observationPromptChars(),
        defaults.maxStepChars());
  }

  public boolean allows(String tool) {
    return allowedTools.contains(ALL_TOOLS) || allowedTools.contains(tool);
  }

  private static Set<String> toolNames(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
  }

  private static int positive(Map<String, String> properties, String name, int fallback) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidAgentSettingException(name, value, "a whole number greater than 0");
  }
}
