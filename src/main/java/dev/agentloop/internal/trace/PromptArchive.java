package dev.agentloop.internal.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Keeps the prompt of every model call in {@code agentloop_prompt} without storing the conversation
 * again for each call: a prompt is stored as a change of the previous prompt of the same purpose on
 * the run's active path (its base), as segments that are either a range of the base's messages
 * ({@code {"ref": [from, to]}}) or a message of its own. A turn adds a thought, its calls and their
 * results, so a call stores those and two ranges: storage grows with what the run added, not with the
 * square of its length, and a sliding context window (older steps left out) stays a few ranges. The
 * tools are stored only when they differ from the base's. Writing one diffs against the run's last
 * prompt, remembered in memory, and costs one insert (the base is read from the database only after a
 * restart, or when another node ran the run's last step); {@link PromptReads} reads them back.
 *
 * <p>Why not rebuild prompts from the trace: what the model read also depended on the agent's
 * settings, escape checks, warnings and the context window of that moment; storing it is the only
 * way to show it as it was sent. Thread-safe.
 */
class PromptArchive {

  /**
   * How many runs' last prompts are kept in memory: a run's next call diffs against its last one.
   * Twice the worker's default tasks in flight ({@code agentloop.worker.max-concurrency}), so that a
   * node that runs that many at once finds every run's last prompt here instead of reading all of
   * the run's prompts back from the database for each call.
   */
  private static final int REMEMBERED_RUNS = 2048;

  private final JdbcTemplate jdbc;
  private final ObjectMapper json;
  private final PromptReads reads;
  private final Map<String, Last> lastPrompts = Collections.synchronizedMap(
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Last> eldest) {
          return size() > REMEMBERED_RUNS;
        }
      });

  PromptArchive(JdbcTemplate jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.json = json;
    this.reads = new PromptReads(jdbc, json);
  }

  /** The last prompt written for a run, remembered once its transaction committed (rows never change after). */
  private record Last(int stepNo, SentPrompt prompt) {}

  /** Stores the prompt of the call that wrote step {@code stepNo}; joins the caller's transaction. */
  void store(String runId, int stepNo, SentPrompt prompt) {
    Last base = base(runId, stepNo, prompt.purpose());
    ArrayNode segments = base == null ? PromptSegments.literal(prompt.messages())
        : PromptSegments.diff(base.prompt().messages(), prompt.messages());
    boolean sameTools = base != null && base.prompt().tools().equals(prompt.tools());
    jdbc.update("INSERT INTO agentloop_prompt (run_id, step_no, purpose, base_step, segments, tools)"
            + " VALUES (?, ?, ?, ?, ?, ?)", runId, stepNo, prompt.purpose(), base == null ? null : base.stepNo(),
        write(segments), sameTools ? null : write(prompt.tools()));
    remember(runId, new Last(stepNo, prompt));
  }

  /**
   * The prompt to store a new one as a change of: the run's last prompt of the same purpose as
   * remembered here, without a query; otherwise (after a restart, when another node ran the run's
   * last step, for the first prompt of a purpose) the last one of that purpose on the active path.
   * An edit may have superseded the remembered one since: it is a stored prompt all the same, so the
   * change reads back exactly, only less compactly than against the new branch's last.
   */
  private Last base(String runId, int stepNo, String purpose) {
    Last last = lastPrompts.get(runId);
    if (last != null && last.prompt().purpose().equals(purpose) && last.stepNo() < stepNo) {
      return last;
    }
    List<Integer> bases = jdbc.queryForList("SELECT p.step_no FROM agentloop_prompt p JOIN agentloop_step s"
        + " ON s.run_id = p.run_id AND s.step_no = p.step_no WHERE p.run_id = ? AND p.purpose = ?"
        + " AND s.status = 'ACTIVE' AND p.step_no < ? ORDER BY p.step_no DESC LIMIT 1",
        Integer.class, runId, purpose, stepNo);
    return bases.isEmpty() ? null
        : reads.read(runId, bases.get(0)).map(prompt -> new Last(bases.get(0), prompt)).orElse(null);
  }

  /** Only after the commit: a rolled-back step number is used again by the write that wins. */
  private void remember(String runId, Last last) {
    if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          lastPrompts.put(runId, last);
        }
      });
    } else {
      lastPrompts.put(runId, last);
    }
  }

  private String write(JsonNode node) {
    try {
      return json.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("a prompt cannot be written as JSON", e);
    }
  }
}
