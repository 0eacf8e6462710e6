package dev.agentloop.agent.definition;

import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.ReviewKind;
import dev.agentloop.agent.compose.AgentsAsTools;
import dev.agentloop.resilience.Escapes;
import dev.agentloop.tool.ToolApprovals;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.builtin.AskHumanTool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
 * tools through. Thread-safe (immutable).
 */
public class AgentDiagramRules {

  private static final String PLAN_REVIEW = ReviewKind.PLAN.value();
  private static final String ANSWER_REVIEW = ReviewKind.ANSWER.value();
  private static final String APPROVAL = ReviewKind.APPROVE_ACTION.value();
  private static final String ASK_HUMAN = ReviewKind.ASK_HUMAN.value();
  private static final String AGENT_STUCK = ReviewKind.AGENT_STUCK.value();
  private static final List<String> ESCAPES = List.of(Escapes.LOOP_DETECTED, Escapes.BUDGET_EXHAUSTED,
      Escapes.TOOL_UNAVAILABLE);

  private final ToolRegistry tools;
  private final AgentsAsTools agents;
  private final ToolApprovals approvals;
  private final Set<String> topics;
  private final AgentDefaults defaults;

  /**
   * @param topics the external-task topics AgentLoop serves
   * @param defaults the settings a diagram leaves out
   */
  public AgentDiagramRules(ToolRegistry tools, ToolApprovals approvals, Collection<String> topics,
      AgentDefaults defaults, AgentsAsTools agents) {
    this.agents = Objects.requireNonNull(agents, "agents");
    this.tools = Objects.requireNonNull(tools, "tools");
    this.approvals = Objects.requireNonNull(approvals, "approvals");
    this.topics = new TreeSet<>(topics);
    this.defaults = Objects.requireNonNull(defaults, "defaults");
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
      findings.addAll(checkShape(tasks, caughtErrors));
    }
    if (findings.isEmpty() && processKey != null) {
      findings.addAll(checkAgentCalls(processKey, tasks));
    }
    return findings;
  }

  /**
   * Agents named in allowedTools need the diagram's callAgent activity, and may not lead back to the agent itself:
   * a cycle of agents calling agents would only end at the depth limit.
   */
  private List<Finding> checkAgentCalls(String processKey, List<DiagramTask> tasks) {
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
      findings.add(new Finding(setOn, prefix(setOn, AgentSettings.ALLOWED_TOOLS) + "names the agents " + String.join(", ", called)
          + ", but the diagram has no call activity that asks agents: add one after act (Agent: call an agent)"));
    }
    for (String agent : called) {
      List<String> cycle = pathBack(processKey, agent, new ArrayList<>(List.of(processKey)));
      if (cycle != null) {
        findings.add(new Finding(setOn, prefix(setOn, AgentSettings.ALLOWED_TOOLS) + "names the agent '" + agent + "', which leads"
            + " back to this agent: " + String.join(" → ", cycle) + "; agents may not call themselves, directly or"
            + " through others"));
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

  private List<Finding> checkProperty(String elementId, String name, String value) {
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

  /** The tasks the agent's settings route runs to must be in the diagram. */
  private List<Finding> checkShape(List<DiagramTask> tasks, Set<String> caughtErrors) {
    Map<String, String> properties = new HashMap<>();
    Map<String, String> setOn = new LinkedHashMap<>();
    tasks.stream().filter(DiagramTask::agentTask).forEach(task -> task.properties().forEach((name, value) -> {
      properties.put(name, value);
      setOn.put(name, task.id());
    }));
    AgentSettings settings = AgentSettings.of(properties, defaults);
    Set<String> reviews = tasks.stream().map(DiagramTask::reviewKind).filter(Objects::nonNull).collect(Collectors.toSet());
    List<Finding> findings = new ArrayList<>();
    String plan = taskOn(tasks, ReactAgentProcess.TOPIC_PLAN);
    if (plan != null && !settings.autoAcceptPlan() && !reviews.contains(PLAN_REVIEW)) {
      findings.add(missing(setOn, plan, AgentSettings.AUTO_ACCEPT_PLAN, "is false, so plans wait for a review, but the"
          + " diagram has no plan review task: add one (Agent: review (plan)) or set it to true"));
    }
    String think = taskOn(tasks, ReactAgentProcess.TOPIC_THINK);
    if (think == null) {
      return findings;
    }
    if (!settings.autoAcceptAnswer() && !reviews.contains(ANSWER_REVIEW)) {
      findings.add(missing(setOn, think, AgentSettings.AUTO_ACCEPT_ANSWER, "is false, so answers wait for a review,"
          + " but the diagram has no answer review task: add one (Agent: review (answer)) or set it to true"));
    }
    // an allowed tool of an MCP server not listed yet counts too: it may well have side effects
    List<String> approved = java.util.stream.Stream.concat(tools.names().stream(),
            settings.allowedTools().stream().filter(tools::accepts)).distinct()
        .filter(tool -> settings.allows(tool) && approvals.needsApproval(tool)).sorted().toList();
    if (!approved.isEmpty() && !reviews.contains(APPROVAL)) {
      findings.add(missing(setOn, think, AgentSettings.ALLOWED_TOOLS, "allows " + String.join(", ", approved)
          + ", whose calls need a person's approval, but the diagram has no approval task: add one"
          + " (Agent: review (tool calls)) or allow other tools"));
    }
    boolean asksPeople = tools.contains(AskHumanTool.NAME) && settings.allows(AskHumanTool.NAME);
    if (asksPeople && !reviews.contains(ASK_HUMAN)) {
      findings.add(missing(setOn, think, AgentSettings.ALLOWED_TOOLS, "allows ask_human, but the diagram has no"
          + " ask-human task: add one (Agent: ask human) or allow other tools"));
    }
    List<String> remote = tools.names().stream().filter(tool -> settings.allows(tool) && tools.isRemote(tool))
        .sorted().toList();
    if (!remote.isEmpty() && taskOn(tasks, ReactAgentProcess.TOPIC_REMOTE_TOOL) == null) {
      findings.add(missing(setOn, think, AgentSettings.ALLOWED_TOOLS, "allows " + String.join(", ", remote)
          + ", which remote workers run, but the diagram has no remote tool task: add one after act"
          + " (Agent: call a remote tool) or allow other tools"));
    }
    if (asksPeople && settings.limits().maxRunTime().compareTo(settings.askHumanTimeout()) <= 0) {
      findings.add(missing(setOn, think, AgentSettings.MAX_RUN_TIME, "is " + settings.limits().maxRunTime()
          + ", not longer than askHumanTimeout (" + settings.askHumanTimeout() + "): the loop's timer would end"
          + " every wait for a person's answer; make it longer, or askHumanTimeout shorter"));
    }
    findings.addAll(checkEscapeRoute(think, reviews, caughtErrors));
    return findings;
  }

  /**
   * A diagram with an escape route catches every escape: one it missed would end the run unseen. A
   * diagram with none (no agent-stuck task, no escape caught) gets incidents for operators instead.
   */
  private static List<Finding> checkEscapeRoute(String think, Set<String> reviews, Set<String> caughtErrors) {
    List<String> uncaught = caughtErrors.contains("") ? List.of()
        : ESCAPES.stream().filter(code -> !caughtErrors.contains(code)).toList();
    boolean route = reviews.contains(AGENT_STUCK) || uncaught.size() < ESCAPES.size();
    if (!route || uncaught.isEmpty()) {
      return List.of();
    }
    return List.of(new Finding(think, "element '" + think + "': its runs escape their loop with the BPMN errors "
        + String.join(", ", ESCAPES) + ", but the diagram catches no " + String.join(", ", uncaught)
        + ": add boundary error events for them on the agent loop, leading to the agent-stuck task (see react-agent.bpmn)"));
  }

  private static Finding missing(Map<String, String> setOn, String fallbackElement, String property, String problem) {
    String elementId = setOn.getOrDefault(property, fallbackElement);
    String where = setOn.containsKey(property) ? "" : "(by the application's default) ";
    return new Finding(elementId, prefix(elementId, property) + where + problem);
  }

  private static String taskOn(List<DiagramTask> tasks, String topic) {
    return tasks.stream().filter(task -> topic.equals(task.topic())).map(DiagramTask::id).findFirst().orElse(null);
  }

  private static String prefix(String elementId, String property) {
    return "element '" + elementId + "': agent property '" + property + "' ";
  }
}
