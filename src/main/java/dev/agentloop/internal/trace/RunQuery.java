package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which runs of an agent to list, newest first.
 *
 * @param agentKey the agent whose runs to list, or {@code null}: any agent (as for the runs of one conversation id)
 * @param statuses stored statuses to keep, empty: any
 * @param from runs started at or after this instant, or {@code null}
 * @param to runs started before this instant, or {@code null}
 * @param editedBy runs in which this person wrote a step (an edit, a note, an approval, an answer) or
 *     which they restarted, or {@code null}
 * @param text a piece of the question, any case, or {@code null}
 * @param readable the only runs the searcher may see, or {@code null}: all; the page and the total both count
 *     only these, so that a total tells nothing of runs the searcher may not read
 */
public record RunQuery(String agentKey, Set<RunStatus> statuses, Instant from, Instant to, String editedBy,
    String text, int offset, int limit, Set<String> readable) {

  public RunQuery {
    statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    readable = readable == null ? null : Set.copyOf(readable);
    if (offset < 0) {
      throw new IllegalArgumentException("offset must not be negative, but was " + offset);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, but was " + limit);
    }
    if (from != null && to != null && !from.isBefore(to)) {
      throw new IllegalArgumentException("from (" + from + ") must be before to (" + to + ")");
    }
  }

  /** A search over all runs of the agent. */
  public RunQuery(String agentKey, Set<RunStatus> statuses, Instant from, Instant to, String editedBy, String text,
      int offset, int limit) {
    this(agentKey, statuses, from, to, editedBy, text, offset, limit, null);
  }

  /** The same search over only these runs (of those it was over already). */
  public RunQuery readableOnly(Set<String> runIds) {
    Set<String> only = readable == null ? runIds
        : runIds.stream().filter(readable::contains).collect(Collectors.toUnmodifiableSet());
    return new RunQuery(agentKey, statuses, from, to, editedBy, text, offset, limit, only);
  }
}
