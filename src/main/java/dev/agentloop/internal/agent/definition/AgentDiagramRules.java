package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an agent diagram must get right, checked when it is deployed, so that a slip in Modeler fails
 * the deployment with a message naming the element and the property instead of failing a run later:
 * <ul>
 *   <li>every external task of an agent is on a topic AgentLoop serves, or on the remote tool topic
 *       {@code agentloop.tool.${tool}};
 *   <li>every extension property of an agent task is a setting AgentLoop knows, with a usable value;
 *   <li>every allowed tool is registered;
 *   <li>the tasks the settings send a run to are in the diagram: a plan review unless plans are
 *       accepted automatically, an answer review unless answers are, an approval task when an
 *       allowed tool needs approval (else its calls would run unapproved), an ask-human task when
 *       {@code ask_human} is allowed, a remote tool task when a remote tool is allowed (else its
 *       calls would never run);
 *   <li>the escape route is whole: a diagram that catches one of the escapes' BPMN errors
 *       (LOOP_DETECTED, BUDGET_EXHAUSTED, TOOL_UNAVAILABLE) catches them all (a diagram that catches none
 *       gets incidents instead, for operators);
 *   <li>the loop's run time ({@code maxRunTime}) is longer than the wait for a person's answer
 *       ({@code askHumanTimeout}) when the agent may ask one, else the timer would cut every long wait.
 * </ul>
 * The tools are those of the application's {@link ToolRegistry}, the very registry the agents call
 * tools through. This class checks each task's topic and properties; the rules that read all tasks
 * together are apart: the diagram's shape ({@code DiagramShapeRules}) and the agents it calls
 * ({@code AgentCallRules}). Thread-safe (immutable).
 */
public class AgentDiagramRules {

  private final ToolRegistry tools;
  private final Set<String> topics;
  private final AgentDefaults defaults;
  private final DiagramShapeRules shape;
  private final AgentCallRules agentCalls;

  /**
   * @param topics the external-task topics AgentLoop serves
   * @param defaults the settings a diagram leaves out
   */
  public AgentDiagramRules(ToolRegistry tools, ToolApprovals approvals, Collection<String> topics,
      AgentDefaults defaults, AgentsAsTools agents) {
    Objects.requireNonNull(agents, "agents");
    this.tools = Objects.requireNonNull(tools, "tools");
    Objects.requireNonNull(approvals, "approvals");
    this.topics = new TreeSet<>(topics);
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.shape = new DiagramShapeRules(tools, approvals, defaults);
    this.agentCalls = new AgentCallRules(agents, defaults);
  }

  /**
   * A task of an agent diagram the rules look at.
   *
   * @param topic the external-task topic; {@code null} for a task that is not external
   * @param reviewKind the value of {@code agentloop.review}; {@code null} for a task that is no review
   * @param properties the task's extension properties
   */
  public record DiagramTask(String id, String topic, String reviewKind, Map<String, String> properties) {

    public DiagramTask {
      // a property may have no value, which Map.copyOf would refuse
      properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    boolean agentTask() {
      return reviewKind != null || topic != null && topic.startsWith(ReactAgentProcess.TOPIC_PREFIX);
    }
  }

  /** What is wrong with one element; the message names the element, and the property where one is at fault. */
  public record Finding(String elementId, String message) {}

  /**
   * @return every finding for the tasks of one agent process, assuming it catches every escape;
   *     empty when it may be deployed
   */
  public List<Finding> check(List<DiagramTask> tasks) {
    return check(tasks, Set.of(""));
  }

  /**
   * @param caughtErrors the codes of the BPMN errors the process's boundary events catch; {@code ""}
   *     stands for an event that catches every error
   * @return every finding for the tasks of one agent process; empty when it may be deployed
   */
  public List<Finding> check(List<DiagramTask> tasks, Set<String> caughtErrors) {
    return check(null, tasks, caughtErrors);
  }

  /**
   * @param processKey the agent's process key, to find agents it calls that call it back; {@code null}: not checked
   */
  public List<Finding> check(String processKey, List<DiagramTask> tasks, Set<String> caughtErrors) {
    List<Finding> findings = new ArrayList<>();
    for (DiagramTask task : tasks) {
      if (task.topic() != null && task.topic().startsWith(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX)
          && !task.topic().equals(ReactAgentProcess.TOPIC_REMOTE_TOOL)) {
        findings.add(new Finding(task.id(), "element '" + task.id() + "': camunda:topic '" + task.topic()
            + "' is not the remote tool topic: remote tool tasks use " + ReactAgentProcess.TOPIC_REMOTE_TOOL
            + ", whose tool each call names (apply the element template Agent: call a remote tool)"));
      } else if (task.topic() != null && !topics.contains(task.topic())
          && !task.topic().equals(ReactAgentProcess.TOPIC_REMOTE_TOOL)) {
        findings.add(new Finding(task.id(), "element '" + task.id() + "': camunda:topic '" + task.topic()
            + "' is not a topic AgentLoop serves; agent tasks use " + String.join(", ", topics)
            + ", " + ReactAgentProcess.TOPIC_REMOTE_TOOL
            + " (apply the element templates Agent: plan, think, act, call a remote tool)"));
      }
      if (task.agentTask()) {
        task.properties().forEach((name, value) -> findings.addAll(checkProperty(task.id(), name, value)));
      }
    }
    if (findings.isEmpty()) {
      findings.addAll(shape.check(tasks, caughtErrors));
    }
    if (findings.isEmpty() && processKey != null) {
      findings.addAll(agentCalls.check(processKey, tasks));
    }
    return findings;
  }

  private List<Finding> checkProperty(String elementId, String name, String value) {
    if (ReactAgentProcess.CALLERS_MAY_ANSWER_PROPERTY.equals(name)) {
      return "true".equals(value) || "false".equals(value) ? List.of() : List.of(new Finding(elementId,
          prefix(elementId, name) + "must be true or false, not '" + value + "'"));
    }
    if (!AgentSettings.NAMES.contains(name) && !ReactAgentProcess.REVIEW_PROPERTY.equals(name)) {
      return List.of(new Finding(elementId, prefix(elementId, name) + "is not an AgentLoop setting; use one of "
          + String.join(", ", new TreeSet<>(AgentSettings.NAMES))));
    }
    AgentSettings settings;
    try {
      // one property at a time, so that every bad value is reported, not only the first
      settings = AgentSettings.of(value == null ? Map.of() : Map.of(name, value), defaults);
    } catch (InvalidAgentSettingException e) {
      return List.of(new Finding(elementId, "element '" + elementId + "': " + e.getMessage()));
    }
    if (!AgentSettings.ALLOWED_TOOLS.equals(name)) {
      return List.of();
    }
    return settings.allowedTools().stream()
        .filter(tool -> !tool.equals(AgentSettings.ALL_TOOLS) && !tools.accepts(tool))
        .sorted()
        .map(tool -> new Finding(elementId, prefix(elementId, name) + "names the unknown tool '" + tool
            + "'; registered tools: " + String.join(", ", new TreeSet<>(tools.names()))))
        .toList();
  }

  /** How a finding about an agent property of an element begins. */
  static String prefix(String elementId, String property) {
    return "element '" + elementId + "': agent property '" + property + "' ";
  }
}
