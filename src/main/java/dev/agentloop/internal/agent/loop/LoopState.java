package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a handler knows about a run when it prepares the next step: the run, its plan, and the
 * most recent steps of the active path (root first). Reading it costs the same at step 10 and at
 * step 1,000, unless the agent has a context budget: then {@code recent} is the whole active path,
 * which the digest of older turns is derived from (see {@link AgentSettings#contextBudgetTokens()}).
 *
 * @param plan the plan on the active path, or {@code null}
 * @param truncated whether older steps of the active path are left out of {@code recent}
 * @param attempt how many final answers were already given (and regenerated) at this point
 * @param followUp the follow-up step that opened the current turn of a conversation, or {@code null} in
 *     the first turn; {@code plan} is the current turn's plan, never one of an earlier turn
 */
public record LoopState(RunRecord run, Step plan, List<Step> recent, boolean truncated, int attempt, Step followUp) {

  public LoopState {
    recent = List.copyOf(recent);
  }

  public LoopState(RunRecord run, Step plan, List<Step> recent, boolean truncated, int attempt) {
    this(run, plan, recent, truncated, attempt, null);
  }

  public LoopState(RunRecord run, Step plan, List<Step> recent, boolean truncated) {
    this(run, plan, recent, truncated, 0, null);
  }

  /** The question of the current turn: the run's own, or the newest follow-up's. */
  public String question() {
    return followUp == null ? run.question() : ((FollowUp) followUp.content()).text();
  }

  /**
   * The state after this worker appended steps: what the next task of the run starts from without
   * reading the database again. The recent steps stay within {@code window}.
   */
  LoopState advance(Appended appended, Usage usage, int window) {
    List<Step> steps = new ArrayList<>(recent);
    steps.addAll(appended.steps());
    int cut = Math.max(0, steps.size() - window);
    Step newFollowUp = appended.steps().stream().filter(s -> s.content() instanceof FollowUp).reduce((a, b) -> b)
        .orElse(followUp);
    Step newPlan = appended.steps().stream().filter(s -> s.content() instanceof Plan).reduce((a, b) -> b)
        .orElse(newFollowUp != followUp ? null : plan);
    return new LoopState(run.advancedTo(appended.head(), usage), newPlan, steps.subList(cut, steps.size()),
        truncated || cut > 0, attempt, newFollowUp);
  }

  public RunHead head() {
    return run.head();
  }

  /** The number of the model turn that comes next. */
  int nextTurn() {
    return run.head().headTurn() + 1;
  }

  /** The latest {@code steps} of {@link #recent}, root first. */
  List<Step> latest(int steps) {
    return recent.subList(Math.max(0, recent.size() - steps), recent.size());
  }

  public Optional<Step> headStep() {
    return recent.isEmpty() ? Optional.empty() : Optional.of(recent.get(recent.size() - 1));
  }

  /** The newest turn's calls, observations and approvals. */
  public Turn turn() {
    return Turn.newest(recent);
  }
}
