package dev.agentloop.internal.web.a2a;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An A2A task of AgentLoop's: one turn of a run, written {@code <run id>:<turn>}, so that a task is found from its id
 * alone, on any node, with nothing kept beside the run. Immutable.
 */
record TaskRef(String runId, int turn) {

  private static final Pattern ID = Pattern.compile("([A-Za-z0-9-]{1,64}):([1-9][0-9]{0,5})");

  TaskRef {
    if (turn < 1) {
      throw new IllegalArgumentException("turn must be at least 1, was " + turn);
    }
  }

  String id() {
    return runId + ":" + turn;
  }

  /** The task an id names; empty for anything that is no task id of AgentLoop's. */
  static Optional<TaskRef> parse(String id) {
    Matcher matcher = id == null ? null : ID.matcher(id);
    return matcher != null && matcher.matches()
        ? Optional.of(new TaskRef(matcher.group(1), Integer.parseInt(matcher.group(2)))) : Optional.empty();
  }
}
