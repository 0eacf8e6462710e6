package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunCosts;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What operators look up about runs beside their steps: what each call cost, the prompt a model
 * call received, and which runs match a search. Read-only; thread-safe.
 */
public class RunInsights {

  private final JdbcTemplate jdbc;
  private final PromptReads prompts;
  private final StepRows rows;

  public RunInsights(JdbcTemplate jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.prompts = new PromptReads(jdbc, json);
    this.rows = new StepRows(json);
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
        }, StepKind.HUMAN_INPUT.name(), StepStore.FOLLOW_UP_PATTERN, runId);
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
    List<Object> arguments = new ArrayList<>();
    String where = where(query, arguments);
    if (query.readable() != null) {
      return readableOnly(query, where, arguments);
    }
    Long total = jdbc.queryForObject("SELECT COUNT(*) FROM agentloop_run r" + where, Long.class, arguments.toArray());
    arguments.add(query.limit());
    arguments.add(query.offset());
    List<RunRecord> runs = jdbc.query(RunRecords.SELECT + where
        + " ORDER BY r.created_at DESC, r.run_id LIMIT ? OFFSET ?", rows::run, arguments.toArray());
    return new Page(runs, total == null ? 0 : total);
  }

  /**
   * The page among the matching runs the searcher may read: their ids are few (runs granted one by one),
   * so the matching ids are read and kept in Java rather than sent as a list of parameters.
   */
  private Page readableOnly(RunQuery query, String where, List<Object> arguments) {
    if (query.readable().isEmpty()) {
      return new Page(List.of(), 0);
    }
    List<String> matching = jdbc.queryForList("SELECT r.run_id FROM agentloop_run r" + where
        + " ORDER BY r.created_at DESC, r.run_id", String.class, arguments.toArray()).stream()
        .filter(query.readable()::contains).toList();
    List<String> page = matching.subList(Math.min(query.offset(), matching.size()),
        Math.min(query.offset() + query.limit(), matching.size()));
    if (page.isEmpty()) {
      return new Page(List.of(), matching.size());
    }
    List<RunRecord> runs = jdbc.query(RunRecords.SELECT + " WHERE r.run_id IN ("
        + String.join(", ", Collections.nCopies(page.size(), "?")) + ") ORDER BY r.created_at DESC, r.run_id",
        rows::run, page.toArray());
    return new Page(runs, matching.size());
  }

  /** @param total how many runs match, on all pages */
  public record Page(List<RunRecord> runs, long total) {}

  private static String where(RunQuery query, List<Object> arguments) {
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    if (query.agentKey() != null) {
      where.append(" AND r.agent_key = ?");
      arguments.add(query.agentKey());
    }
    if (!query.statuses().isEmpty()) {
      where.append(" AND r.status IN (").append(String.join(", ", Collections.nCopies(query.statuses().size(), "?")))
          .append(')');
      query.statuses().stream().map(Enum::name).sorted().forEach(arguments::add);
    }
    if (query.from() != null) {
      where.append(" AND r.created_at >= ?");
      arguments.add(query.from().atOffset(ZoneOffset.UTC));
    }
    if (query.to() != null) {
      where.append(" AND r.created_at < ?");
      arguments.add(query.to().atOffset(ZoneOffset.UTC));
    }
    if (query.editedBy() != null) {
      where.append(" AND (r.restarted_by = ? OR EXISTS (SELECT 1 FROM agentloop_step s WHERE s.author = ?"
          + " AND s.run_id = r.run_id))");
      arguments.add(query.editedBy());
      arguments.add(query.editedBy());
    }
    if (query.text() != null) {
      // the run's question, or any follow-up question of a conversation (searched in the step's JSON)
      where.append(" AND (LOWER(r.question) LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM agentloop_step s"
          + " WHERE s.run_id = r.run_id AND s.kind = 'HUMAN_INPUT' AND s.content LIKE ? AND LOWER(s.content) LIKE ?"
          + " ESCAPE '\\'))");
      String pattern = "%" + query.text().toLowerCase().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
          + "%";
      arguments.add(pattern);
      arguments.add(StepStore.FOLLOW_UP_PATTERN);
      arguments.add(pattern);
    }
    return where.toString();
  }

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
