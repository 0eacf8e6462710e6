package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepContent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The newest model turn of a run's active path, as far as it concerns its tool calls: the calls the
 * model made after its thought, their observations and people's decisions on them. Which calls are
 * still open, which were rejected, and what runs for a call that a person edited are answered here
 * and nowhere else.
 */
public final class Turn {

  /** A model turn has at most this many tool calls; a reply with more is refused as a whole. */
  public static final int MAX_CALLS = 16;
  /**
   * Steps enough to hold the newest turn: its thought, and per call its action, its observation and
   * at most one approval step, with a person's note before a retried turn.
   */
  public static final int WINDOW = 4 * MAX_CALLS;

  private final List<Step> steps;
  private final Map<String, Approval> approvals;

  private Turn(List<Step> steps) {
    this.steps = List.copyOf(steps);
    this.approvals = approvalsOf(this.steps);
  }

  /** The newest turn of a path (root first): the calls, observations and approvals after its last thought. */
  public static Turn newest(List<Step> path) {
    int start = path.size();
    while (start > 0 && belongsToCalls(path.get(start - 1).content())) {
      start--;
    }
    return new Turn(path.subList(start, path.size()));
  }

  /** All calls of the turn, in the order they were made. */
  public List<Action> calls() {
    return steps.stream().filter(step -> step.content() instanceof Action).map(step -> step.contentAs(Action.class)).toList();
  }

  /** The calls that have no observation yet, in the order they were made; empty when none are open. */
  public List<Action> open() {
    return open(steps.stream().map(Step::content).toList());
  }

  /** The calls among these contents that have no observation among them, in their order. */
  public static List<Action> open(List<StepContent> contents) {
    Set<String> observed = new HashSet<>();
    contents.stream().filter(content -> content instanceof Observation)
        .forEach(content -> observed.add(((Observation) content).callId()));
    List<Action> open = new ArrayList<>();
    contents.stream().filter(content -> content instanceof Action action && !observed.contains(action.callId()))
        .forEach(content -> open.add((Action) content));
    return open;
  }

  /** What people decided about the turn's calls, by call id, each with who decided; the latest decision counts. */
  public Map<String, Approval> approvals() {
    return approvals;
  }

  private static Map<String, Approval> approvalsOf(List<Step> steps) {
    Map<String, Approval> approvals = new LinkedHashMap<>();
    for (Step step : steps) {
      if (step.content() instanceof Approvals decided) {
        decided.approvals().forEach(approval -> approvals.put(approval.callId(), approval.by(step.author())));
      }
    }
    return Collections.unmodifiableMap(approvals);
  }

  /** Whether a person rejected the call. */
  public boolean rejected(Action call) {
    Approval approval = approvals().get(call.callId());
    return approval != null && approval.rejects();
  }

  /** The call as it runs: as the model made it, or with the arguments a person gave it when approving it. */
  public Action asRun(Action call) {
    Approval approval = approvals().get(call.callId());
    return approval != null && approval.decision() == Approval.Decision.EDIT ? call.withArguments(approval.arguments())
        : call;
  }

  /**
   * What stays valid of a turn when one of its calls or observations ({@code edited}) is changed:
   * the turn's other calls and their observations among the steps that followed it. Approvals are
   * not kept: the calls they were for are approved again where needed.
   */
  public static List<Step> unaffectedBy(Step edited, List<Step> following) {
    String callId = edited.content() instanceof Action action ? action.callId()
        : edited.content() instanceof Observation observation ? observation.callId() : null;
    if (callId == null) {
      return List.of();
    }
    List<Step> kept = new ArrayList<>();
    for (Step step : following) {
      if (!belongsToCalls(step.content())) {
        break;
      }
      if (step.content() instanceof Action action && !action.callId().equals(callId)
          || step.content() instanceof Observation observation && !callId.equals(observation.callId())) {
        kept.add(step);
      }
    }
    return kept;
  }

  private static boolean belongsToCalls(StepContent content) {
    return content instanceof Action || content instanceof Observation || content instanceof Approvals;
  }
}
