package dev.agentloop.internal.resilience;

import dev.agentloop.internal.resilience.Budget.Spent;

/**
 * Checks a run's spending against its {@link Budget} before the next model call and before tool
 * calls. Near a limit ({@code finalAnswerAt} of it used, or one model call or turn left) the model is
 * asked for its final answer; past it the run escapes with {@code BUDGET_EXHAUSTED}. Thread-safe
 * (immutable).
 */
public class BudgetCheck {

  /** Where a run stands against its budget. */
  public enum State { WITHIN, NEAR, EXHAUSTED }

  /**
   * @param reason which limit, in words, e.g. "38 of 40 model calls"; {@code null} when WITHIN
   */
  public record Verdict(State state, String reason) {

    public static final Verdict WITHIN = new Verdict(State.WITHIN, null);
  }

  private final double finalAnswerAt;

  /** @param finalAnswerAt the share of a budget from which the model is asked for its final answer, in (0, 1] */
  public BudgetCheck(double finalAnswerAt) {
    if (!(finalAnswerAt > 0 && finalAnswerAt <= 1)) {
      throw new IllegalArgumentException("finalAnswerAt must be in (0, 1], was " + finalAnswerAt);
    }
    this.finalAnswerAt = finalAnswerAt;
  }

  /** Before the model is called for turn {@code spent.turns() + 1}. */
  public Verdict beforeModelCall(Budget budget, Spent spent) {
    int nextTurn = spent.turns() + 1;
    if (nextTurn > budget.maxSteps()) {
      return exhausted("all " + budget.maxSteps() + " steps (model turns) were used");
    }
    if (spent.modelCalls() >= budget.maxModelCalls()) {
      return exhausted("all " + budget.maxModelCalls() + " model calls were made");
    }
    if (budget.maxTokens() > 0 && spent.tokens() >= budget.maxTokens()) {
      return exhausted(spent.tokens() + " of " + budget.maxTokens() + " tokens were used");
    }
    if (nextTurn == budget.maxSteps()) {
      return near("this is the last of " + budget.maxSteps() + " steps");
    }
    if (spent.modelCalls() + 1 >= budget.maxModelCalls() || near(spent.modelCalls(), budget.maxModelCalls())) {
      return near(spent.modelCalls() + " of " + budget.maxModelCalls() + " model calls were made");
    }
    if (spent.toolCalls() >= budget.maxToolCalls() || near(spent.toolCalls(), budget.maxToolCalls())) {
      return near(spent.toolCalls() + " of " + budget.maxToolCalls() + " tool calls were made");
    }
    if (budget.maxTokens() > 0 && near(spent.tokens(), budget.maxTokens())) {
      return near(spent.tokens() + " of " + budget.maxTokens() + " tokens were used");
    }
    return Verdict.WITHIN;
  }

  /** Before {@code calls} tool calls run; exhausted when they would go past the limit. */
  public Verdict beforeToolCalls(Budget budget, Spent spent, int calls) {
    if (spent.toolCalls() + calls > budget.maxToolCalls()) {
      return exhausted(spent.toolCalls() + " of " + budget.maxToolCalls() + " tool calls were made, and " + calls
          + " more were asked for");
    }
    return Verdict.WITHIN;
  }

  private boolean near(long spent, long limit) {
    return spent >= Math.ceil(limit * finalAnswerAt);
  }

  private static Verdict near(String reason) {
    return new Verdict(State.NEAR, reason);
  }

  private static Verdict exhausted(String reason) {
    return new Verdict(State.EXHAUSTED, reason);
  }
}
