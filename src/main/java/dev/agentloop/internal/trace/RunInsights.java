package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunCosts;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What operators look up about runs beside their steps: what each call cost, the prompt a model
 * call received, and which runs match a search ({@link RunSearch}). Read-only; thread-safe.
 */
public class RunInsights {

  private final JdbcTemplate jdbc;
  private final PromptReads prompts;
  private final RunSearch search;

  public RunInsights(JdbcTemplate jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.prompts = new PromptReads(jdbc, json);
    this.search = new RunSearch(jdbc, new StepRows(json));
  }

  /** The cost of each step of the run that has one, by step number. */
  public Map<Integer, StepCost> costs(String runId) {
    Map<Integer, StepCost> costs = new HashMap<>();
    jdbc.query("SELECT step_no, cost_model_call, cost_latency_ms, cost_prompt_tokens, cost_completion_tokens,"
        + " cost_total_tokens, cost_cache_read_tokens, cost_cache_write_tokens, cost_model FROM agentloop_step"
        + " WHERE run_id = ? AND cost_model_call IS NOT NULL", rs -> {
          costs.put(rs.getInt(1), new StepCost(rs.getObject(3, Long.class), rs.getBoolean(2),
              rs.getObject(4, Long.class), rs.getObject(5, Long.class), rs.getObject(6, Long.class),
              rs.getObject(7, Long.class), rs.getObject(8, Long.class), rs.getString(9)));
        }, runId);
    return costs;
  }

  public RunCosts totals(String runId) {
    return jdbc.queryForObject("SELECT"
        + " SUM(CASE WHEN cost_model_call THEN cost_latency_ms ELSE 0 END),"
        + " SUM(CASE WHEN cost_model_call THEN 0 ELSE cost_latency_ms END),"
        + " SUM(cost_prompt_tokens), SUM(cost_completion_tokens),"
        + " SUM(CASE WHEN cost_model_call AND cost_prompt_tokens IS NULL AND cost_completion_tokens IS NULL"
        + " AND cost_total_tokens IS NULL THEN 1 ELSE 0 END),"
        + " SUM(cost_cache_read_tokens), SUM(cost_cache_write_tokens)"
        + " FROM agentloop_step WHERE run_id = ? AND cost_model_call IS NOT NULL",
        (rs, row) -> new RunCosts(rs.getLong(1), rs.getLong(2), sum(rs, 3), sum(rs, 4), rs.getInt(5), sum(rs, 6),
            sum(rs, 7)), runId);
  }

  /**
   * What the calls of each turn of a conversation cost, by turn number (1 for the run's question).
   * A step of the active path belongs to the turn its nearest follow-up question opened; a superseded
   * step to the turn of the active step its branch forked from, so that earlier answers and the later
   * turns that a regeneration took off the path count for the turn that was redone, and the turns
   * together cost what {@link #totals} says. Turns without a call are missing from the map.
   */
  public Map<Integer, RunCosts> turnCosts(String runId) {
    Map<Integer, StepCost> costs = costs(runId);
    Map<Integer, Integer> turnOf = new HashMap<>();
    jdbc.query("SELECT step_no, parent_no, status, CASE WHEN kind = ? AND content LIKE ? THEN 1 ELSE 0 END"
        + " FROM agentloop_step WHERE run_id = ? ORDER BY step_no", rs -> {
          int parentNo = rs.getInt(2);
          int parentTurn = rs.wasNull() ? 1 : turnOf.getOrDefault(parentNo, 1);
          boolean opensTurn = StepStatus.ACTIVE.name().equals(rs.getString(3)) && rs.getInt(4) == 1;
          turnOf.put(rs.getInt(1), opensTurn ? parentTurn + 1 : parentTurn);
        }, StepKind.HUMAN_INPUT.name(), StepRows.FOLLOW_UP_PATTERN, runId);
    Map<Integer, List<StepCost>> byTurn = new HashMap<>();
    costs.forEach((stepNo, cost) ->
        byTurn.computeIfAbsent(turnOf.getOrDefault(stepNo, 1), turn -> new ArrayList<>()).add(cost));
    Map<Integer, RunCosts> sums = new HashMap<>();
    byTurn.forEach((turn, calls) -> sums.put(turn, sum(calls)));
    return sums;
  }

  /** A sum that is {@code null} when nothing was summed; PostgreSQL sums BIGINT as NUMERIC, hence not getObject. */
  private static Long sum(ResultSet rs, int column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  /** The prompt of the model call that wrote this step, if it was recorded (model steps only). */
  public Optional<SentPrompt> prompt(String runId, int stepNo) {
    return prompts.read(runId, stepNo);
  }

  /** The steps of the run whose model call's prompt is recorded. */
  public Set<Integer> stepsWithPrompt(String runId) {
    return new HashSet<>(jdbc.queryForList("SELECT step_no FROM agentloop_prompt WHERE run_id = ?", Integer.class,
        runId));
  }

  /** One page of the runs that match, newest first, and how many match altogether. */
  public Page search(RunQuery query) {
    return search.search(query);
  }

  /** @param total how many runs match, on all pages */
  public record Page(List<RunRecord> runs, long total) {}

  /** The sum of what these calls cost, as {@link #totals} sums a whole run: for one turn of a conversation. */
  static RunCosts sum(Collection<StepCost> costs) {
    long modelLatency = 0;
    long toolLatency = 0;
    Long prompt = null;
    Long completion = null;
    Long cacheRead = null;
    Long cacheWrite = null;
    int withoutUsage = 0;
    for (StepCost cost : costs) {
      long latency = cost.latencyMillis() == null ? 0 : cost.latencyMillis();
      if (!cost.modelCall()) {
        toolLatency += latency;
        continue;
      }
      modelLatency += latency;
      prompt = plus(prompt, cost.promptTokens());
      completion = plus(completion, cost.completionTokens());
      cacheRead = plus(cacheRead, cost.cacheReadTokens());
      cacheWrite = plus(cacheWrite, cost.cacheWriteTokens());
      withoutUsage += cost.tokensReported() ? 0 : 1;
    }
    return new RunCosts(modelLatency, toolLatency, prompt, completion, withoutUsage, cacheRead, cacheWrite);
  }

  /** A sum of counts that may be unknown: unknown only while nothing known was added. */
  private static Long plus(Long sum, Long count) {
    return count == null ? sum : sum == null ? count : Long.valueOf(sum + count);
  }
}
