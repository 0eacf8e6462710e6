package dev.agentloop.internal.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads back a prompt that {@link PromptArchive} stored as a change of its base: reading one reads the
 * rows of its run once and follows its ranges back through its bases, visiting only what it needs.
 * Thread-safe.
 */
final class PromptReads {

  private final JdbcTemplate jdbc;
  private final ObjectMapper json;

  PromptReads(JdbcTemplate jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** The prompt stored for the call that wrote step {@code stepNo}, if one is. */
  Optional<SentPrompt> read(String runId, int stepNo) {
    List<String> purposes = jdbc.queryForList("SELECT purpose FROM agentloop_prompt WHERE run_id = ? AND step_no = ?",
        String.class, runId, stepNo);
    if (purposes.isEmpty()) {
      return Optional.empty();
    }
    String purpose = purposes.get(0);
    Map<Integer, Row> rows = new HashMap<>();
    jdbc.query("SELECT step_no, base_step, segments, tools FROM agentloop_prompt WHERE run_id = ? AND purpose = ?"
        + " AND step_no <= ?", rs -> {
          rows.put(rs.getInt(1), new Row(rs.getObject(2, Integer.class), rs.getString(3), rs.getString(4)));
        }, runId, purpose, stepNo);
    ArrayNode messages = json.createArrayNode();
    emit(rows, stepNo, 0, Integer.MAX_VALUE, messages);
    JsonNode tools = json.createArrayNode();
    for (Row row = rows.get(stepNo); row != null; row = row.base() == null ? null : rows.get(row.base())) {
      if (row.tools() != null) {
        tools = read(row.tools());
        break;
      }
    }
    return Optional.of(new SentPrompt(purpose, messages, tools));
  }

  /**
   * Adds messages {@code from} up to {@code to} of the prompt stored at {@code stepNo} to {@code out},
   * following ranges into the base only for the messages asked for: reading a prompt costs its own
   * length plus one visit per base in its chain, not the length of every prompt before it.
   */
  private void emit(Map<Integer, Row> rows, int stepNo, int from, int to, ArrayNode out) {
    Row row = rows.get(stepNo);
    if (row == null) {
      throw new IllegalStateException("the stored prompt of step " + stepNo + " is missing from its chain");
    }
    int position = 0;
    for (JsonNode segment : row.parsed(this)) {
      boolean range = PromptSegments.isRange(segment);
      int length = PromptSegments.length(segment);
      int start = Math.max(from, position);
      int end = Math.min(to, position + length);
      if (start < end) {
        if (range) {
          int offset = PromptSegments.rangeStart(segment) - position;
          emit(rows, row.base(), start + offset, end + offset, out);
        } else {
          out.add(segment);
        }
      }
      position += length;
      if (position >= to) {
        return;
      }
    }
  }

  private JsonNode read(String text) {
    try {
      return json.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored prompt is not JSON", e);
    }
  }

  /** A stored row; its segments are parsed once per read, when the read first needs them. */
  private static final class Row {
    private final Integer base;
    private final String segments;
    private final String tools;
    private JsonNode parsed;

    Row(Integer base, String segments, String tools) {
      this.base = base;
      this.segments = segments;
      this.tools = tools;
    }

    Integer base() {
      return base;
    }

    String tools() {
      return tools;
    }

    JsonNode parsed(PromptReads reads) {
      if (parsed == null) {
        parsed = reads.read(segments);
      }
      return parsed;
    }
  }
}
