package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDiagramRules.DiagramTask;
import dev.agentloop.internal.agent.definition.AgentDiagramRules.Finding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of an agent diagram about the agents it calls as tools. Apart from {@link AgentDiagramRules} because
 * they alone look past the diagram, at the other agents deployed ({@link AgentsAsTools}), and run only on a
 * diagram that is otherwise right. Thread-safe (immutable).
 */
final class AgentCallRules {

  private final AgentsAsTools agents;
  private final AgentDefaults defaults;

  AgentCallRules(AgentsAsTools agents, AgentDefaults defaults) {
    this.agents = agents;
    this.defaults = defaults;
  }

  /**
   * Agents named in allowedTools need the diagram's callAgent activity, and may not lead back to the agent itself:
   * a cycle of agents calling agents would only end at the depth limit.
   */
  List<Finding> check(String processKey, List<DiagramTask> tasks) {
    Map<String, String> properties = new HashMap<>();
    String setOn = null;
    for (DiagramTask task : tasks) {
      if (task.agentTask() && task.properties().containsKey(AgentSettings.ALLOWED_TOOLS)) {
        properties.put(AgentSettings.ALLOWED_TOOLS, task.properties().get(AgentSettings.ALLOWED_TOOLS));
        setOn = task.id();
      }
    }
    if (setOn == null) {
      return List.of();
    }
    List<String> called = AgentSettings.of(properties, defaults).allowedTools().stream().filter(agents::isAgent)
        .sorted().toList();
    if (called.isEmpty()) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    if (tasks.stream().noneMatch(task -> "true".equals(task.properties().get(ReactAgentProcess.CALL_AGENT_PROPERTY)))) {
      findings.add(new Finding(setOn, AgentDiagramRules.prefix(setOn, AgentSettings.ALLOWED_TOOLS) + "names the agents "
          + String.join(", ", called)
          + ", but the diagram has no call activity that asks agents: add one after act (Agent: call an agent)"));
    }
    for (String agent : called) {
      List<String> cycle = pathBack(processKey, agent, new ArrayList<>(List.of(processKey)));
      if (cycle != null) {
        findings.add(new Finding(setOn, AgentDiagramRules.prefix(setOn, AgentSettings.ALLOWED_TOOLS) + "names the agent '"
            + agent + "', which leads back to this agent: " + String.join(" → ", cycle) + "; agents may not call"
            + " themselves, directly or through others"));
      }
    }
    return findings;
  }

  /** The agents from {@code path} through {@code next} back to {@code origin}, or {@code null} when there is none. */
  private List<String> pathBack(String origin, String next, List<String> path) {
    path.add(next);
    if (next.equals(origin)) {
      return path;
    }
    if (path.size() <= 16) {
      for (String called : agents.calledBy(next)) {
        if (!path.subList(1, path.size()).contains(called) || called.equals(origin)) {
          List<String> found = pathBack(origin, called, new ArrayList<>(path));
          if (found != null) {
            return found;
          }
        }
      }
    }
    return null;
  }
}
