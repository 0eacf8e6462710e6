package dev.agentloop.internal.budget;

/**
 * The one place that decides whether a run may make its next call: its {@link Spending} against its {@link Budget},
 * before the next model call and before tool calls. What counts is what the run spent and what the runs it called
 * spent (its tree): a coordinator cannot spend more through its sub-agents than its budget allows. Near a limit
 * ({@code finalAnswerAt} of it used, or one model call or turn left) the model is asked for its final answer; past it
 * the run escapes with {@code BUDGET_EXHAUSTED}. (The database guards the same limits for the callers of a run at
 * each call, so that children running side by side never spend past them together: {@code trace.TreeCharges}.)
 * Thread-safe (immutable).
 */
public class BudgetCheck {

  /** Where a run stands against its budget. */
  public enum State { WITHIN, NEAR, EXHAUSTED }

  /**
   * @param reason which limit, in words, e.g. "38 of 40 model calls were made"; {@code null} when WITHIN
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

  /** Before the model is called for turn {@code spent.turns() + 1} of a run that called no other agent. */
  public Verdict beforeModelCall(Budget budget, Spending spent) {
    return beforeModelCall(budget, spent, Spending.NONE);
  }

  /**
   * Before the model is called for turn {@code own.turns() + 1}.
   *
   * @param own what the run itself spent
   * @param calls what the runs it called (and theirs) spent
   */
  public Verdict beforeModelCall(Budget budget, Spending own, Spending calls) {
    Spending spent = own.plus(calls);
    int nextTurn = own.turns() + 1;
    if (nextTurn > budget.maxSteps()) {
      return exhausted("all " + budget.maxSteps() + " steps (model turns) were used");
    }
    if (spent.modelCalls() >= budget.maxModelCalls()) {
      return exhausted("all " + budget.maxModelCalls() + " model calls were made" + share(calls.modelCalls()));
    }
    if (budget.limitsTokens() && spent.tokens() >= budget.maxTokens()) {
      return exhausted(spent.tokens() + " of " + budget.maxTokens() + " tokens were used" + share(calls.tokens()));
    }
    if (nextTurn == budget.maxSteps()) {
      return near("this is the last of " + budget.maxSteps() + " steps");
    }
    if (spent.modelCalls() + 1 >= budget.maxModelCalls() || near(spent.modelCalls(), budget.maxModelCalls())) {
      return near(spent.modelCalls() + " of " + budget.maxModelCalls() + " model calls were made"
          + share(calls.modelCalls()));
    }
    if (spent.toolCalls() >= budget.maxToolCalls() || near(spent.toolCalls(), budget.maxToolCalls())) {
      return near(spent.toolCalls() + " of " + budget.maxToolCalls() + " tool calls were made"
          + share(calls.toolCalls()));
    }
    if (budget.limitsTokens() && near(spent.tokens(), budget.maxTokens())) {
      return near(spent.tokens() + " of " + budget.maxTokens() + " tokens were used" + share(calls.tokens()));
    }
    return Verdict.WITHIN;
  }

  /** Before {@code count} tool calls run; exhausted when they would go past the limit. */
  public Verdict beforeToolCalls(Budget budget, Spending spent, int count) {
    if (spent.toolCalls() + count > budget.maxToolCalls()) {
      return exhausted(spent.toolCalls() + " of " + budget.maxToolCalls() + " tool calls were made, and " + count
          + " more were asked for");
    }
    return Verdict.WITHIN;
  }

  private boolean near(long spent, long limit) {
    return spent >= Math.ceil(limit * finalAnswerAt);
  }

  private static String share(long byCalls) {
    return byCalls == 0 ? "" : " (" + byCalls + " of them by the agents it called)";
  }

  private static Verdict near(String reason) {
    return new Verdict(State.NEAR, reason);
  }

  private static Verdict exhausted(String reason) {
    return new Verdict(State.EXHAUSTED, reason);
  }
}
