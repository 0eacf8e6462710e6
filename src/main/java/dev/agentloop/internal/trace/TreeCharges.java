package dev.agentloop.internal.trace;

import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the runs of a tree of agents spend, charged to the runs that called them as it happens
 * ({@code agentloop_tree_use}): a call counts against every caller's budget the moment it is made, not when its run
 * ends. A run's model and tool calls are charged before they go out, each caller's row guarded by that caller's
 * budget in the same statement, so that children running side by side — on one node or several — never spend past
 * their caller's budget together; tokens, known only from a reply, are charged with the reply's steps.
 *
 * <p>Only these rows are locked by a charge, callers nearest first; no run's own row is. A stop locks runs from the
 * top of a tree down and never these rows, so a charge and a stop never wait on each other in a cycle. A run that no
 * agent called is charged nothing here and costs no statement. Thread-safe.
 */
public class TreeCharges {

  /*
   * What a caller spent itself: what it had spent when it last called agents (its calls of agents under way
   * included, which its own count has only once they are observed), or what its row counts now, when it went on
   * spending since: a caller that goes on while a child it called before answers again after an edit (or runs again
   * after a restart) spends beside it. Read, not locked: the caller's own calls are guarded by its own check.
   */
  private static final String OWN_MODEL_CALLS = "GREATEST(own_model_calls, (SELECT r.model_calls FROM agentloop_run r"
      + " WHERE r.run_id = agentloop_tree_use.run_id))";
  private static final String OWN_TOOL_CALLS = "GREATEST(own_tool_calls, (SELECT r.tool_calls FROM agentloop_run r"
      + " WHERE r.run_id = agentloop_tree_use.run_id))";
  private static final String OWN_TOKENS = "GREATEST(own_tokens, (SELECT r.tokens FROM agentloop_run r"
      + " WHERE r.run_id = agentloop_tree_use.run_id))";

  private final JdbcTemplate jdbc;
  private final TransactionTemplate newTransaction;

  public TreeCharges(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
    this.jdbc = jdbc;
    this.newTransaction = new TransactionTemplate(transactionManager);
    newTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
  }

  /**
   * Where a caller of a run stands: its budget when it last called other agents (steps: unlimited, a tree shares no
   * steps), what it had spent itself then, and what the runs it called have spent since.
   */
  public record Caller(String runId, Budget budget, Spending own, Spending calls) {}

  /**
   * Charges calls a run is about to make to each of its callers, in a transaction of its own; nothing is charged
   * when a caller's budget has no room for them (for a model call: no model call or no token left).
   *
   * @return the nearest caller whose budget refused, or empty when the calls may go out
   */
  public Optional<Caller> reserve(RunRecord run, int modelCalls, int toolCalls) {
    List<String> callers = nearestFirst(run);
    if (callers.isEmpty()) {
      return Optional.empty();
    }
    return newTransaction.execute(status -> {
      for (String caller : callers) {
        int charged = jdbc.update("UPDATE agentloop_tree_use SET model_calls = model_calls + ?,"
                + " tool_calls = tool_calls + ?, last_by = ? WHERE run_id = ?"
                + " AND " + OWN_MODEL_CALLS + " + model_calls + ? <= max_model_calls"
                + " AND " + OWN_TOOL_CALLS + " + tool_calls + ? <= max_tool_calls"
                + " AND (? = 0 OR max_tokens = 0 OR " + OWN_TOKENS + " + tokens < max_tokens)",
            modelCalls, toolCalls, run.runId(), caller, modelCalls, toolCalls, modelCalls);
        if (charged == 0) {
          // no row: a caller of a release before budgets over trees, which guards nothing
          Optional<Caller> refused = caller(caller);
          if (refused.isPresent()) {
            status.setRollbackOnly();
            return refused;
          }
        }
      }
      return Optional.<Caller>empty();
    });
  }

  /** Gives back calls {@link #reserve reserved} but never made (the call failed before it reached the model). */
  public void release(RunRecord run, int modelCalls, int toolCalls) {
    List<String> callers = nearestFirst(run);
    if (!callers.isEmpty()) {
      newTransaction.executeWithoutResult(status -> callers.forEach(caller -> jdbc.update("UPDATE agentloop_tree_use"
          + " SET model_calls = model_calls - ?, tool_calls = tool_calls - ? WHERE run_id = ?", modelCalls, toolCalls,
          caller)));
    }
  }

  /**
   * Charges what a run spent without asking first to its callers, in the caller's transaction (the one that writes
   * the steps it spent for): the tokens of a reply, known only from it, and calls a person asked for.
   */
  public void charge(RunRecord run, int modelCalls, int toolCalls, long tokens) {
    if (modelCalls == 0 && toolCalls == 0 && tokens <= 0) {
      return;
    }
    for (String caller : nearestFirst(run)) {
      jdbc.update("UPDATE agentloop_tree_use SET model_calls = model_calls + ?, tool_calls = tool_calls + ?,"
          + " tokens = tokens + ?, last_by = ? WHERE run_id = ?", modelCalls, toolCalls, Math.max(0, tokens),
          run.runId(), caller);
    }
  }

  /**
   * Before a run calls other agents, in the transaction that starts them: its row, with what it spent itself and its
   * budget now, which guard its calls' charges; made on its first call of an agent, what its calls spent is kept.
   *
   * @param own what the run spent itself, the calls of agents it is making now included
   */
  public void open(String runId, Spending own, Budget budget) {
    int updated = jdbc.update("UPDATE agentloop_tree_use SET own_model_calls = ?, own_tool_calls = ?, own_tokens = ?,"
            + " max_model_calls = ?, max_tool_calls = ?, max_tokens = ? WHERE run_id = ?", own.modelCalls(),
        own.toolCalls(), own.tokens(), budget.maxModelCalls(), budget.maxToolCalls(), budget.maxTokens(), runId);
    if (updated == 0) {
      jdbc.update("INSERT INTO agentloop_tree_use (run_id, model_calls, tool_calls, tokens, own_model_calls,"
              + " own_tool_calls, own_tokens, max_model_calls, max_tool_calls, max_tokens) VALUES"
              + " (?, 0, 0, 0, ?, ?, ?, ?, ?, ?)", runId, own.modelCalls(), own.toolCalls(), own.tokens(),
          budget.maxModelCalls(), budget.maxToolCalls(), budget.maxTokens());
    }
  }

  /**
   * What each caller of a run that is about to start has left: the callers' rows, top-level run first.
   *
   * @return the callers' budgets and spending, for the new run's own budget ({@link Budget#within})
   */
  public List<Caller> standing(List<String> callers) {
    List<Caller> rows = new ArrayList<>();
    for (String caller : callers) {
      caller(caller).ifPresent(rows::add);
    }
    return rows;
  }

  /**
   * The budget of a run these callers' calls led to: its agent's, at most what each of them has left.
   *
   * @param callers the top-level run first
   */
  public Budget within(Budget agents, List<String> callers) {
    Budget budget = agents;
    for (Caller above : standing(callers)) {
      budget = budget.within(above.budget(), above.own().plus(above.calls()));
    }
    return budget;
  }

  /**
   * A new run that another run's callers led to as well (a restart of a run another agent called, or such a run
   * re-opened by a person's edit): it spends from their budgets as the run it was started from did, with at most
   * what they have left; in the transaction that starts it, before its first call.
   *
   * @param callers the callers of the run it was started from, the top-level run first; none: nothing changes
   */
  public void join(String runId, List<String> callers, Budget agents) {
    if (callers.isEmpty()) {
      return;
    }
    Budget budget = within(agents, callers);
    jdbc.update("UPDATE agentloop_run SET callers = ?, max_steps = ?, max_model_calls = ?, max_tool_calls = ?,"
            + " max_tokens = ? WHERE run_id = ?", String.join(",", callers), budget.maxSteps(),
        budget.maxModelCalls(), budget.maxToolCalls(), budget.maxTokens(), runId);
  }

  private Optional<Caller> caller(String caller) {
    return jdbc.query("SELECT model_calls, tool_calls, tokens, " + OWN_MODEL_CALLS + " AS own_model_calls, "
        + OWN_TOOL_CALLS + " AS own_tool_calls, " + OWN_TOKENS + " AS own_tokens, max_model_calls, max_tool_calls,"
        + " max_tokens FROM agentloop_tree_use WHERE run_id = ?", (rs, row) ->
        new Caller(caller, new Budget(Integer.MAX_VALUE, rs.getInt("max_model_calls"), rs.getInt("max_tool_calls"),
            rs.getLong("max_tokens")),
            new Spending(0, rs.getInt("own_model_calls"), rs.getInt("own_tool_calls"), rs.getLong("own_tokens")),
            new Spending(0, rs.getInt("model_calls"), rs.getInt("tool_calls"), rs.getLong("tokens"))), caller)
        .stream().findFirst();
  }

  private static List<String> nearestFirst(RunRecord run) {
    List<String> callers = new ArrayList<>(run.tree().callers());
    Collections.reverse(callers);
    return callers;
  }
}
