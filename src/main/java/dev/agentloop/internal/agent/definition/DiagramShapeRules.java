package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.definition.AgentDiagramRules.DiagramTask;
import dev.agentloop.internal.agent.definition.AgentDiagramRules.Finding;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rules of an agent diagram about its shape: the tasks the agent's settings route runs to (reviews, approval,
 * ask-human, remote tool) are in the diagram, and its escape route is whole. Apart from {@link AgentDiagramRules},
 * which checks each task on its own, because these read the settings of all its tasks together, and run only on
 * tasks that are each right. Thread-safe (immutable).
 */
final class DiagramShapeRules {

  private static final String PLAN_REVIEW = ReviewKind.PLAN.value();
  private static final String ANSWER_REVIEW = ReviewKind.ANSWER.value();
  private static final String APPROVAL = ReviewKind.APPROVE_ACTION.value();
  private static final String ASK_HUMAN = ReviewKind.ASK_HUMAN.value();
  private static final String AGENT_STUCK = ReviewKind.AGENT_STUCK.value();
  private static final List<String> ESCAPES = List.of(Escapes.LOOP_DETECTED, Escapes.BUDGET_EXHAUSTED,
      Escapes.TOOL_UNAVAILABLE);

  private final ToolRegistry tools;
  private final ToolApprovals approvals;
  private final AgentDefaults defaults;

  DiagramShapeRules(ToolRegistry tools, ToolApprovals approvals, AgentDefaults defaults) {
    this.tools = tools;
    this.approvals = approvals;
    this.defaults = defaults;
  }

  /** The tasks the agent's settings route runs to must be in the diagram. */
  List<Finding> check(List<DiagramTask> tasks, Set<String> caughtErrors) {
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
    if (plan != null && !settings.review().autoAcceptPlan() && !reviews.contains(PLAN_REVIEW)) {
      findings.add(missing(setOn, plan, AgentSettings.AUTO_ACCEPT_PLAN, "is false, so plans wait for a review, but the"
          + " diagram has no plan review task: add one (Agent: review (plan)) or set it to true"));
    }
    String think = taskOn(tasks, ReactAgentProcess.TOPIC_THINK);
    if (think == null) {
      return findings;
    }
    if (!settings.review().autoAcceptAnswer() && !reviews.contains(ANSWER_REVIEW)) {
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
    if (asksPeople && settings.limits().maxRunTime().compareTo(settings.review().askHumanTimeout()) <= 0) {
      findings.add(missing(setOn, think, AgentSettings.MAX_RUN_TIME, "is " + settings.limits().maxRunTime()
          + ", not longer than askHumanTimeout (" + settings.review().askHumanTimeout()
          + "): the loop's timer would end"
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
    return new Finding(elementId, AgentDiagramRules.prefix(elementId, property) + where + problem);
  }

  private static String taskOn(List<DiagramTask> tasks, String topic) {
    return tasks.stream().filter(task -> topic.equals(task.topic())).map(DiagramTask::id).findFirst().orElse(null);
  }
}
