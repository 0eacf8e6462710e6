package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.step.Action;
import java.util.List;

/**
 * Where the loop goes after the model called tools: to a person when it asked one (and only
 * that, with questions the ask-human form can show), to approval when a call needs it, else
 * straight to {@code act}, which also reports what was wrong with calls it cannot run.
 */
public class Router {

  private final ToolApprovals approvals;
  private final ToolRegistry tools;

  public Router(ToolApprovals approvals, ToolRegistry tools) {
    this.approvals = approvals;
    this.tools = tools;
  }

  public Route afterToolCalls(List<Action> actions, AgentSettings settings) {
    if (actions.size() == 1 && actions.get(0).tool().equals(AskHumanTool.NAME)
        && tools.refusal(AskHumanTool.NAME, actions.get(0).argumentsAsWritten(), settings::allows).isEmpty()) {
      return Route.ASK_HUMAN;
    }
    return actions.stream().anyMatch(action -> needsApproval(action, settings)) ? Route.APPROVE_ACTION : Route.ACT;
  }

  /**
   * Calls the agent may make with usable arguments, of tools whose calls need a person's approval,
   * and every call that would repeat a side effect of an abandoned branch, whatever the tool's setting.
   */
  public boolean needsApproval(Action action, AgentSettings settings) {
    return action.hasValidArguments() && settings.allows(action.tool())
        && (action.repeats() != null || approvals.needsApproval(action.tool()));
  }
}
