package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.resume.InFlowChanges;
import java.math.BigDecimal;
import java.util.function.Supplier;

/**
 * The budget in {@code agentStuck}: what the run and the agents it called used of it (shown), what guide and retry do
 * with it now, and a person raising it. A run's budget covers all its turns; a used-up budget lets the agent go on
 * only when the person who guides it (or retries its calls) gives a new limit for what is used up — AgentLoop never
 * grants a turn by itself. The new limits hold for the rest of the run. Thread-safe.
 */
final class StuckBudget {

  /** The form's fields of the new limits, each optional: a whole number above what is used. */
  static final String STEPS = "newMaxSteps";
  static final String MODEL_CALLS = "newMaxModelCalls";
  static final String TOOL_CALLS = "newMaxToolCalls";
  static final String TOKENS = "newMaxTokens";

  private final Supplier<InFlowChanges> changes;
  private final BudgetCheck check;

  StuckBudget(Supplier<InFlowChanges> changes, BudgetCheck check) {
    this.changes = changes;
    this.check = check;
  }

  void prepare(ReviewTask task, RunRecord run, AgentSettings settings) {
    Budget budget = run.budgetOr(settings.budget());
    Spending spent = run.spent().plus(run.tree().calls());
    task.put("budget", used(budget, run, spent));
    task.put("decisionHelp", help(check.beforeModelCall(budget, run.spent(), run.tree().calls())));
    for (String field : new String[] {STEPS, MODEL_CALLS, TOOL_CALLS, TOKENS}) {
      task.put(field, null);
    }
  }

  /**
   * For guide and retry: the new limits the person gave are the run's from now on.
   *
   * @throws ReviewException a limit that is no whole number above what is used, or a budget that stays used up
   */
  void raise(ReviewTask task, RunRecord run, AgentSettings settings) {
    Budget budget = run.budgetOr(settings.budget());
    Spending spent = run.spent().plus(run.tree().calls());
    Integer steps = limit(task, STEPS, run.head().headTurn());
    Integer modelCalls = limit(task, MODEL_CALLS, spent.modelCalls());
    Integer toolCalls = limit(task, TOOL_CALLS, spent.toolCalls());
    Integer tokens = limit(task, TOKENS, spent.tokens());
    Budget raised = budget.raisedTo(steps, modelCalls, toolCalls, tokens == null ? null : tokens.longValue());
    BudgetCheck.Verdict after = check.beforeModelCall(raised, run.spent(), run.tree().calls());
    if (after.state() == BudgetCheck.State.EXHAUSTED) {
      throw new ReviewException("the run's budget is used up (" + after.reason() + "): give a new limit for it with"
          + " your decision (" + fieldOf(after.reason()) + "), or stop the run");
    }
    if (!raised.equals(budget)) {
      changes.get().raiseBudget(run.runId(), raised);
    }
  }

  private static String used(Budget budget, RunRecord run, Spending spent) {
    String calls = run.tree().calls().equals(Spending.NONE) ? ""
        : " (the agents it called: " + run.tree().calls().modelCalls() + " model calls, "
            + run.tree().calls().toolCalls() + " tool calls, " + run.tree().calls().tokens() + " tokens)";
    return run.head().headTurn() + " of " + budget.maxSteps() + " steps, " + spent.modelCalls() + " of "
        + budget.maxModelCalls() + " model calls, " + spent.toolCalls() + " of " + budget.maxToolCalls()
        + " tool calls, " + spent.tokens() + (budget.limitsTokens() ? " of " + budget.maxTokens() : "")
        + " tokens" + calls;
  }

  private static String help(BudgetCheck.Verdict budget) {
    if (budget.state() == BudgetCheck.State.EXHAUSTED) {
      return "The run's budget is used up (" + budget.reason() + "). Guide or retry only with a new limit for it"
          + " below (it holds for the rest of the run, all its turns); or stop the run.";
    }
    if (budget.state() == BudgetCheck.State.NEAR) {
      return "The run is close to its budget (" + budget.reason() + "). Guide: the agent thinks again with your note"
          + " and is asked for its final answer, without tools, unless you give a new limit below. Retry: the last"
          + " tool calls run again as your turn (the budget does not stop them).";
    }
    return "Guide: the agent thinks again with your note and its tools; loop detection starts afresh. Retry: the last"
        + " tool calls run again as your turn, then the agent thinks again with their results.";
  }

  /** The field that raises the limit a verdict's reason names. */
  private static String fieldOf(String reason) {
    return reason.contains("steps") ? STEPS : reason.contains("model calls") ? MODEL_CALLS
        : reason.contains("tool calls") ? TOOL_CALLS : TOKENS;
  }

  /** A new limit the person gave, or {@code null}; it must be a whole number above what is used. */
  private static Integer limit(ReviewTask task, String field, long used) {
    String text = task.text(field);
    if (text.isEmpty()) {
      return null;
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new ReviewException(field + " must be a whole number, was '" + text + "'");
    }
    if (value.signum() <= 0 || value.stripTrailingZeros().scale() > 0 || value.compareTo(BigDecimal.valueOf(
        Integer.MAX_VALUE)) > 0) {
      throw new ReviewException(field + " must be a whole number from 1 to " + Integer.MAX_VALUE + ", was '" + text
          + "'");
    }
    if (value.longValue() <= used) {
      throw new ReviewException(field + " " + value.longValue() + " grants nothing: " + used + " are used already;"
          + " give a limit above that");
    }
    return value.intValue();
  }
}
