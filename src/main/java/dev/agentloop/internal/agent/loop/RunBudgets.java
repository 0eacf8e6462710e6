package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.EscapeException.Reason;
import dev.agentloop.internal.trace.RunRecord;

/**
 * A run's budget at its calls: the run's own (over all its turns, the runs it called included, as {@link BudgetCheck}
 * decides) and, for a run another agent called, its callers' ({@link CallerBudgets}). The budget is the run's where a
 * person raised it or its caller capped it, else its agent's. Nothing lets a run go past a used-up budget but a
 * person who raises it. Thread-safe.
 */
final class RunBudgets {

  private final BudgetCheck check;
  private final CallerBudgets callers;

  RunBudgets(BudgetCheck check, CallerBudgets callers) {
    this.check = check;
    this.callers = callers;
  }

  /**
   * Before {@code think} calls the model.
   *
   * @return why the model must give its final answer now, or {@code null}
   * @throws EscapeException {@code BUDGET_EXHAUSTED} when the budget is used up
   */
  String beforeThink(LoopState state, AgentSettings settings) {
    BudgetCheck.Verdict budget = beforeModelCall(state, settings);
    if (budget.state() == BudgetCheck.State.EXHAUSTED) {
      throw new EscapeException(Reason.BUDGET_EXHAUSTED, "The run's budget is used up: " + budget.reason() + ".");
    }
    return budget.state() == BudgetCheck.State.NEAR ? "This run is close to its budget (" + budget.reason() + ")."
        : null;
  }

  /**
   * Charges the model call about to go out to the run's callers, the last check before it does.
   *
   * @throws EscapeException {@code BUDGET_EXHAUSTED} when a caller's budget has no room for it
   */
  void reserveModelCall(LoopState state) {
    callers.reserve(state.run(), 1, 0);
  }

  /**
   * Before the model is asked for a plan: whether the run's budget still has room for the call, which is then charged
   * to the run's callers. A plan is made before the loop, where no escape is caught: a run without room goes on
   * without a plan, and its first {@code think} leaves the loop for a person.
   */
  boolean beforePlan(LoopState state, AgentSettings settings) {
    if (beforeModelCall(state, settings).state() == BudgetCheck.State.EXHAUSTED) {
      return false;
    }
    try {
      callers.reserve(state.run(), 1, 0);
      return true;
    } catch (EscapeException e) {
      return false;
    }
  }

  /**
   * @param calls how many tool calls of the turn are still to run, here or elsewhere (remote workers, other agents)
   * @param runNow how many of them run now, here: charged to the run's callers
   * @param byAPerson whether a person asked for them (a retry): then no budget stops them, they are only counted
   * @throws EscapeException when they would go past the tool-call budget
   */
  void beforeToolCalls(LoopState state, AgentSettings settings, int calls, int runNow, boolean byAPerson) {
    RunRecord run = state.run();
    if (byAPerson) {
      callers.charge(run, 0, runNow, 0);
      return;
    }
    BudgetCheck.Verdict budget = check.beforeToolCalls(budget(run, settings), run.spent().plus(run.tree().calls()),
        calls);
    if (budget.state() == BudgetCheck.State.EXHAUSTED) {
      throw new EscapeException(Reason.BUDGET_EXHAUSTED, "The run's tool-call budget is used up: " + budget.reason()
          + ".");
    }
    callers.reserve(run, 0, runNow);
  }

  /** A model call charged to the run's callers was not made: the model failed before it answered. */
  void modelCallFailed(LoopState state) {
    callers.release(state.run(), 1, 0);
  }

  /** Tool calls charged to the run's callers that did not run after all. */
  void toolCallsNotRun(LoopState state, int count) {
    callers.release(state.run(), 0, count);
  }

  /** What a run's reply or its calls spent that its callers were not charged before. */
  void charge(RunRecord run, int toolCalls, long tokens) {
    callers.charge(run, 0, toolCalls, tokens);
  }

  private BudgetCheck.Verdict beforeModelCall(LoopState state, AgentSettings settings) {
    RunRecord run = state.run();
    return check.beforeModelCall(budget(run, settings), run.spent().atTurns(state.nextTurn() - 1), run.tree().calls());
  }

  private static Budget budget(RunRecord run, AgentSettings settings) {
    return run.budgetOr(settings.budget());
  }
}
