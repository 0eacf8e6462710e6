package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.RunInsights.Page;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Finds the runs that match a {@link RunQuery}, one page at a time: the query's filters as SQL, and the
 * runs a searcher may read kept apart from the rest. Read-only; thread-safe.
 */
final class RunSearch {

  private final JdbcTemplate jdbc;
  private final StepRows rows;

  RunSearch(JdbcTemplate jdbc, StepRows rows) {
    this.jdbc = jdbc;
    this.rows = rows;
  }

  /** One page of the runs that match, newest first, and how many match altogether. */
  Page search(RunQuery query) {
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
      arguments.add(StepRows.FOLLOW_UP_PATTERN);
      arguments.add(pattern);
    }
    return where.toString();
  }
}
