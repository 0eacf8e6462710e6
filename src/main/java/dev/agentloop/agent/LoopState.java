package dev.agentloop.agent;

import dev.agentloop.trace.Appended;
import dev.agentloop.trace.RunHead;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a handler knows about a run when it prepares the next step: the run, its plan, and the
 * most recent steps of the active path (root first). Reading it costs the same at step 10 and at
 * step 1,000.
 *
 * @param plan the plan on the active path, or {@code null}
 * @param truncated whether older steps of the active path are left out of {@code recent}
 * @param attempt how many final answers were already given (and regenerated) at this point
 */
public record LoopState(RunRecord run, Step plan, List<Step> recent, boolean truncated, int attempt) {

  public LoopState {
    recent = List.copyOf(recent);
  }

  public LoopState(RunRecord run, Step plan, List<Step> recent, boolean truncated) {
    this(run, plan, recent, truncated, 0);
  }

  /**
   * The state after this worker appended steps: what the next task of the run starts from without
   * reading the database again. The recent steps stay within {@code window}.
   */
  LoopState advance(Appended appended, Usage usage, int window) {
    List<Step> steps = new ArrayList<>(recent);
    steps.addAll(appended.steps());
    int cut = Math.max(0, steps.size() - window);
    Step newPlan = appended.steps().stream().filter(s -> s.kind() == StepKind.PLAN).reduce((a, b) -> b).orElse(plan);
    return new LoopState(run.advancedTo(appended.head(), usage), newPlan, steps.subList(cut, steps.size()),
        truncated || cut > 0, attempt);
  }

  public RunHead head() {
    return run.head();
  }

  /** The number of the model turn that comes next. */
  public int nextTurn() {
    return run.head().headTurn() + 1;
  }

  public Optional<Step> headStep() {
    return recent.isEmpty() ? Optional.empty() : Optional.of(recent.get(recent.size() - 1));
  }

  /**
   * The tool calls of the current turn that have no observation yet, in the order the model made
   * them. Empty when the newest turn was not a tool-calling one.
   */
  public List<Action> pendingActions() {
    List<Action> actions = new ArrayList<>();
    Set<String> observed = new HashSet<>();
    for (Step step : currentTurnTail()) {
      if (step.kind() == StepKind.ACTION) {
        actions.add(Action.from(step));
      } else if (step.kind() == StepKind.OBSERVATION) {
        observed.add(step.text("callId"));
      }
    }
    actions.removeIf(action -> observed.contains(action.callId()));
    return actions;
  }

  /** What people decided about the current turn's tool calls, by call id; the latest decision counts. */
  public Map<String, Approval> approvals() {
    Map<String, Approval> approvals = new HashMap<>();
    for (Step step : currentTurnTail()) {
      if (isApproval(step)) {
        step.content().get("approvals").forEach(json -> {
          Approval approval = Approval.from(json, step.author());
          approvals.put(approval.callId(), approval);
        });
      }
    }
    return approvals;
  }

  /** The steps after the newest thought that belong to its tool calls, root first. */
  private List<Step> currentTurnTail() {
    int start = recent.size();
    while (start > 0) {
      Step step = recent.get(start - 1);
      if (step.kind() != StepKind.ACTION && step.kind() != StepKind.OBSERVATION && !isApproval(step)) {
        break;
      }
      start--;
    }
    return recent.subList(start, recent.size());
  }

  static boolean isApproval(Step step) {
    return step.kind() == StepKind.HUMAN_INPUT && step.content().has("approvals");
  }
}
