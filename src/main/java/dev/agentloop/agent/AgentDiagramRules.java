package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an agent diagram must get right, checked when it is deployed, so that a slip in Modeler fails
 * the deployment with a message naming the element and the property instead of failing a run later:
 * every external task of an agent is on a topic AgentLoop serves; every extension property of an
 * agent task is a setting AgentLoop knows, with a value it can use; every allowed tool is registered.
 * The tools are those of the application's {@link ToolRegistry}, the very registry the agents call
 * tools through. Thread-safe (immutable).
 */
public class AgentDiagramRules {

  private final ToolRegistry tools;
  private final Set<String> topics;
  private final AgentLoopProperties.Agent defaults;

  /**
   * @param topics the external-task topics AgentLoop serves
   * @param defaults the settings a diagram leaves out; a property is checked as if it were the only one set
   */
  public AgentDiagramRules(ToolRegistry tools, Collection<String> topics, AgentLoopProperties.Agent defaults) {
    this.tools = tools;
    this.topics = new TreeSet<>(topics);
    this.defaults = defaults;
  }

  /**
   * Checks the topic of an external task in an agent process: analysts build agents from AgentLoop's
   * tasks, and a task on any other topic would wait for a worker that never comes.
   *
   * @return what is wrong, naming the element and the topic; empty when the topic is served
   */
  public List<String> checkTopic(String elementId, String topic) {
    if (topic != null && topics.contains(topic)) {
      return List.of();
    }
    return List.of("element '" + elementId + "': camunda:topic '" + topic + "' is not a topic AgentLoop serves;"
        + " agent tasks use " + String.join(", ", topics) + " (apply the element templates Agent: plan, think, act)");
  }

  /**
   * Checks the extension properties of an agent task (a service task on an agent topic, or a review task).
   *
   * @return one message per problem, each naming the element and the property; empty when all are usable
   */
  public List<String> checkProperties(String elementId, Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    properties.forEach((name, value) -> {
      if (!AgentSettings.NAMES.contains(name) && !ReactAgentProcess.REVIEW_PROPERTY.equals(name)) {
        problems.add(prefix(elementId, name) + "is not an AgentLoop setting; use one of "
            + String.join(", ", new TreeSet<>(AgentSettings.NAMES)));
        return;
      }
      try {
        // one property at a time, so that every bad value is reported, not only the first
        AgentSettings.of(single(name, value), defaults);
      } catch (InvalidAgentSettingException e) {
        problems.add("element '" + elementId + "': " + e.getMessage());
        return;
      }
      if (AgentSettings.ALLOWED_TOOLS.equals(name)) {
        problems.addAll(unknownTools(elementId, value));
      }
    });
    return problems;
  }

  private List<String> unknownTools(String elementId, String value) {
    AgentSettings settings = AgentSettings.of(single(AgentSettings.ALLOWED_TOOLS, value), defaults);
    return settings.allowedTools().stream()
        .filter(tool -> !tool.equals(AgentSettings.ALL_TOOLS) && !tools.contains(tool))
        .sorted()
        .map(tool -> prefix(elementId, AgentSettings.ALLOWED_TOOLS) + "names the unknown tool '" + tool
            + "'; registered tools: " + String.join(", ", new TreeSet<>(tools.names())))
        .toList();
  }

  private static Map<String, String> single(String name, String value) {
    return value == null ? Map.of() : Map.of(name, value);
  }

  private static String prefix(String elementId, String property) {
    return "element '" + elementId + "': agent property '" + property + "' ";
  }
}
