package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.EscapeException.Reason;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.TreeCharges;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The budgets of the runs that called a run (agents that call agents): each model call and each tool call the run
 * makes is charged to them before it goes out ({@link TreeCharges}), so that a coordinator's budget bounds its whole
 * tree, children side by side included. When a caller's budget has no room left, the run does not make the call and
 * leaves its loop, and that caller is announced as spent ({@link CallerBudgetSpent}): it is moved to its
 * {@code agentStuck}, naming the run that asked for more, and every run below it stops. Calls a person asked for
 * (a retry) are charged without the guard: a person decided them. Thread-safe.
 */
public class CallerBudgets {

  /** For runs no agent calls, and code that builds the loop by hand: charges nothing. */
  public static final CallerBudgets NONE = new CallerBudgets(null, null, spent -> { });

  private final TreeCharges charges;
  private final BudgetCheck check;
  private final Consumer<CallerBudgetSpent> announce;

  /** @param announce where a spent caller is told, e.g. Spring's event publisher */
  public CallerBudgets(TreeCharges charges, BudgetCheck check, Consumer<CallerBudgetSpent> announce) {
    this.charges = charges;
    this.check = check;
    this.announce = announce;
  }

  /**
   * Charges calls about to go out to the run's callers.
   *
   * @throws EscapeException {@code BUDGET_EXHAUSTED} when a caller's budget has no room for them; nothing is charged
   */
  void reserve(RunRecord run, int modelCalls, int toolCalls) {
    if (charges == null || run.tree().callers().isEmpty() || modelCalls + toolCalls == 0) {
      return;
    }
    Optional<TreeCharges.Caller> refused = charges.reserve(run, modelCalls, toolCalls);
    if (refused.isEmpty()) {
      return;
    }
    TreeCharges.Caller caller = refused.get();
    BudgetCheck.Verdict verdict = modelCalls > 0
        ? check.beforeModelCall(caller.budget(), caller.own(), caller.calls())
        : check.beforeToolCalls(caller.budget(), caller.own().plus(caller.calls()), toolCalls);
    String what = verdict.reason() == null ? "it has no room for " + toolCalls + " more tool calls" : verdict.reason();
    announce.accept(new CallerBudgetSpent(caller.runId(), run.runId(), run.agentKey(), what));
    throw new EscapeException(Reason.BUDGET_EXHAUSTED, "The budget of run " + caller.runId() + ", whose call of"
        + " agents led to this run, is used up: " + what + ". This run's calls count against it.");
  }

  /** Gives back calls that were charged but never made. */
  void release(RunRecord run, int modelCalls, int toolCalls) {
    if (charges != null && !run.tree().callers().isEmpty() && modelCalls + toolCalls > 0) {
      charges.release(run, modelCalls, toolCalls);
    }
  }

  /**
   * Charges what the run spent without asking first, in the transaction that writes what it spent for: the tokens of
   * a reply, calls a person asked for, calls of remote tools and of other agents (counted when they are observed).
   */
  public void charge(RunRecord run, int modelCalls, int toolCalls, long tokens) {
    if (charges != null && !run.tree().callers().isEmpty()) {
      charges.charge(run, modelCalls, toolCalls, tokens);
    }
  }
}
