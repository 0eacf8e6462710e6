package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.step.Action;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.runtime.ActivityInstance;

/**
 * Whether a run may move to a version of its agent now, and why not, in words. A run moves only at a safe point:
 * waiting in one of AgentLoop's reviews (plan, answer, ask-human, approval, agent stuck) or for a follow-up
 * question, with no incident. A run in a model or tool call, a call of another agent or between two steps is busy.
 * It is refused where the new version cannot take it: an element it waits at or is inside is not in that version,
 * a call it still has to run needs a tool that version does not allow, it has used more of a budget than that
 * version allows, or it waits for a follow-up that version would not take. Reads nothing itself. Thread-safe.
 */
final class MigrationCheck {

  private MigrationCheck() {}

  /** The version a run would move to: its definition, number, settings, plan from the run's version and roles. */
  record Target(String definitionId, int version, AgentSettings settings, MigrationPlans.Plan plan,
      AgentElements sourceElements) {}

  /** What the check found: the run moves (where it waits), it is busy (in what), or it is refused (why). */
  record Verdict(Kind kind, String words) {

    enum Kind { MOVES, BUSY, REFUSED }

    static Verdict refused(String words) {
      return new Verdict(Kind.REFUSED, words);
    }
  }

  static Verdict check(RunState state, RunPosition position, Target target) {
    if (position.version() == target.version()) {
      return Verdict.refused("the run is on version " + target.version() + " already");
    }
    if (!position.incidents().isEmpty()) {
      return Verdict.refused("the run has an incident (" + position.incidents().get(0).getIncidentMessage()
          + "): retry it in Cockpit first; it can move once it waits");
    }
    Optional<String> busy = busy(position, target.sourceElements());
    if (busy.isPresent()) {
      return new Verdict(Verdict.Kind.BUSY, "busy: try again when it waits (it is " + busy.get() + ")");
    }
    return gone(position, target).or(() -> refusedByVersion(state, position, target))
        .map(Verdict::refused)
        .orElseGet(() -> new Verdict(Verdict.Kind.MOVES, waitsIn(position, target.sourceElements())));
  }

  /** What the run is busy with, in words; empty when it only waits at AgentLoop's waits. */
  private static Optional<String> busy(RunPosition position, AgentElements elements) {
    if (!position.between().isEmpty()) {
      return Optional.of("between two steps, at " + position.between().get(0).getActivityId());
    }
    for (ActivityInstance leaf : position.leaves()) {
      String id = leaf.getActivityId();
      if (elements.reviewKind(id).isEmpty() && !elements.isFollowUpWait(id)) {
        return Optional.of(doing(leaf, elements));
      }
    }
    return Optional.empty();
  }

  private static String doing(ActivityInstance leaf, AgentElements elements) {
    String role = elements.role(leaf.getActivityId()).orElse("");
    String named = named(leaf);
    if (role.equals("task:" + ReactAgentProcess.TOPIC_PLAN) || role.equals("task:" + ReactAgentProcess.TOPIC_THINK)) {
      return "in a model call: " + named;
    }
    if (role.startsWith("task:")) {
      return "in a tool call: " + named;
    }
    if (role.equals("callAgent")) {
      return "waiting for another agent it called: " + named;
    }
    return "in " + named + ", which is not one of AgentLoop's waits";
  }

  /** The element the run waits at or is inside that the target version has no mapping for, in words. */
  private static Optional<String> gone(RunPosition position, Target target) {
    List<ActivityInstance> leaves = position.leaves();
    return position.scopes().stream().filter(scope -> target.plan().target(scope.getActivityId()).isEmpty())
        .findFirst().map(scope -> "version " + target.version() + " has no " + named(scope)
            + (leaves.contains(scope) ? ", where the run waits" : ", which the run is inside"));
  }

  /** Why the target's settings cannot take the run, in words; empty when they can. */
  private static Optional<String> refusedByVersion(RunState state, RunPosition position, Target target) {
    AgentSettings settings = target.settings();
    boolean asksHuman = position.leaves().stream().anyMatch(leaf -> target.sourceElements()
        .reviewKind(leaf.getActivityId()).filter(ReviewKind.ASK_HUMAN.value()::equals).isPresent());
    for (Action call : Turn.newest(state.activePath()).open()) {
      // a person answers the agent's question: the tool itself never runs again
      boolean answered = asksHuman && AskHumanTool.NAME.equals(call.tool());
      if (!answered && !settings.allows(call.tool())) {
        return Optional.of("the pending call of " + call.tool() + " (" + call.callId() + ") needs a tool version "
            + target.version() + " does not allow (" + AgentSettings.ALLOWED_TOOLS + ")");
      }
    }
    Optional<String> budget = overBudget(state.run(), settings.budget(), target.version(), position.version());
    if (budget.isPresent()) {
      return budget;
    }
    boolean waitsForFollowUp = position.leaves().stream()
        .anyMatch(leaf -> target.sourceElements().isFollowUpWait(leaf.getActivityId()));
    if (waitsForFollowUp && (!settings.conversation().enabled() || position.called())) {
      return Optional.of("the run waits for a follow-up question, and version " + target.version()
          + " takes none (" + AgentSettings.CONVERSATION + " = false)");
    }
    boolean takesFollowUps = target.sourceElements().id(AgentElements.FOLLOW_UP_EVENT)
        .flatMap(event -> target.plan().target(event)).isPresent();
    if (waitsForFollowUp && !takesFollowUps) {
      return Optional.of("the run waits for a follow-up question, and version " + target.version()
          + " has no event that takes one (message " + ReactAgentProcess.FOLLOW_UP_MESSAGE + ")");
    }
    return Optional.empty();
  }

  /**
   * A budget the run (with the runs it called) has used more of than it would have on the target: it would escape at
   * its next model call, so it stays. A run with a budget of its own (raised by a person, capped by its caller) keeps
   * it, whatever the target allows. At exactly the limit it moves, and goes by the budget rules as any run at its limit.
   */
  private static Optional<String> overBudget(RunRecord run, Budget agents, int version, int fromVersion) {
    if (run.budget() != null) {
      return Optional.empty(); // its own budget goes with it: the new version changes nothing of it
    }
    Budget budget = agents;
    Spending spent = run.spent().plus(run.tree().calls());
    String over = spent.modelCalls() > budget.maxModelCalls()
        ? used(spent.modelCalls(), "model calls", budget.maxModelCalls(), AgentSettings.MAX_MODEL_CALLS)
        : spent.toolCalls() > budget.maxToolCalls()
        ? used(spent.toolCalls(), "tool calls", budget.maxToolCalls(), AgentSettings.MAX_TOOL_CALLS)
        : budget.limitsTokens() && spent.tokens() > budget.maxTokens()
        ? used(spent.tokens(), "tokens", budget.maxTokens(), AgentSettings.MAX_TOKENS) : null;
    return Optional.ofNullable(over).map(text -> text.replace("{v}", Integer.toString(version))
        + "; raise it in version " + version + ", or leave the run on version " + fromVersion);
  }

  private static String used(long used, String what, long limit, String setting) {
    return "the run has used " + used + " " + what + " and version {v} allows " + limit + " (" + setting
        + "): it would be stuck at its next model call";
  }

  private static String waitsIn(RunPosition position, AgentElements elements) {
    return position.leaves().stream().findFirst().map(leaf -> elements.isFollowUpWait(leaf.getActivityId())
        ? "waits for a follow-up question" : "waits in " + named(leaf)).orElse("waits");
  }

  private static String named(ActivityInstance instance) {
    String name = instance.getActivityName();
    return name == null || name.isBlank() ? "'" + instance.getActivityId() + "'"
        : "'" + name + "' (" + instance.getActivityId() + ")";
  }
}
