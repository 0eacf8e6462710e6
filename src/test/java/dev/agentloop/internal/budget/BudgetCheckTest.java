package dev.agentloop.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.internal.budget.BudgetCheck.State;
import org.junit.jupiter.api.Test;

class BudgetCheckTest {

  private final BudgetCheck budgets = new BudgetCheck(0.9);
  private final Budget budget = new Budget(10, 20, 30, 1000);

  @Test
  void should_stay_within_while_every_budget_has_room() {
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 4, 5, 100))).isEqualTo(BudgetCheck.Verdict.WITHIN);
  }

  @Test
  void should_ask_for_the_final_answer_near_each_limit() {
    assertThat(budgets.beforeModelCall(budget, new Spending(9, 4, 5, 100)))
        .isEqualTo(new BudgetCheck.Verdict(State.NEAR, "this is the last of 10 steps"));
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 18, 5, 100)))
        .isEqualTo(new BudgetCheck.Verdict(State.NEAR, "18 of 20 model calls were made"));
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 4, 27, 100)))
        .isEqualTo(new BudgetCheck.Verdict(State.NEAR, "27 of 30 tool calls were made"));
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 4, 5, 900)))
        .isEqualTo(new BudgetCheck.Verdict(State.NEAR, "900 of 1000 tokens were used"));
  }

  @Test
  void should_be_exhausted_past_a_limit() {
    assertThat(budgets.beforeModelCall(budget, new Spending(10, 4, 5, 100)).state()).isEqualTo(State.EXHAUSTED);
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 20, 5, 100)))
        .isEqualTo(new BudgetCheck.Verdict(State.EXHAUSTED, "all 20 model calls were made"));
    assertThat(budgets.beforeModelCall(budget, new Spending(3, 4, 5, 1000)).state()).isEqualTo(State.EXHAUSTED);
    assertThat(budgets.beforeToolCalls(budget, new Spending(3, 4, 28, 0), 2)).isEqualTo(BudgetCheck.Verdict.WITHIN);
    assertThat(budgets.beforeToolCalls(budget, new Spending(3, 4, 28, 0), 3))
        .isEqualTo(new BudgetCheck.Verdict(State.EXHAUSTED, "28 of 30 tool calls were made, and 3 more were asked for"));
  }

  @Test
  void should_count_no_tokens_when_there_is_no_token_budget() {
    Budget noTokenBudget = new Budget(10, 20, 30, 0);
    assertThat(budgets.beforeModelCall(noTokenBudget, new Spending(1, 1, 1, 10_000_000))).isEqualTo(BudgetCheck.Verdict.WITHIN);
  }

  @Test
  void should_refuse_limits_that_could_never_be_met() {
    assertThatThrownBy(() -> new Budget(0, 1, 1, 0)).hasMessageContaining("maxSteps 0");
    assertThatThrownBy(() -> new BudgetCheck(0)).hasMessageContaining("finalAnswerAt must be in (0, 1]");
  }
}
