package dev.agentloop.internal.resume;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A request to move runs of an agent to one of its versions: the runs named one by one, or every open run of one
 * version.
 *
 * @param runs the runs to move, or {@code null} when {@code fromVersion} names them
 * @param fromVersion every open run of this version moves, or {@code null} when {@code runs} names them
 * @param dryRun whether to only say what would become of each run, changing nothing
 * @param reason why, kept with each run's decision; may be blank in a dry run only
 * @param moveWhenWaiting a run busy in a model or tool call moves when it next waits ({@code true}) or is refused
 * @param requestedBy who asks
 */
public record MigrationRequest(String agentKey, int toVersion, List<String> runs, Integer fromVersion, boolean dryRun,
    String reason, boolean moveWhenWaiting, String requestedBy) {

  /** The most runs one request may name, or find by {@code fromVersion}. */
  public static final int MAX_RUNS = 10_000;
  /** The longest reason, as for the other changes of a run. */
  public static final int MAX_REASON = 2000;

  public MigrationRequest {
    Objects.requireNonNull(agentKey, "agentKey");
    Objects.requireNonNull(requestedBy, "requestedBy");
    if ((runs == null) == (fromVersion == null)) {
      throw new InvalidMigrationException("name the runs to move: either runs (their ids) or fromVersion (every open"
          + " run of that version), not " + (runs == null ? "neither" : "both"));
    }
    if (runs != null) {
      if (runs.isEmpty() || runs.size() > MAX_RUNS) {
        throw new InvalidMigrationException("runs must name 1 to " + MAX_RUNS + " runs, named " + runs.size());
      }
      if (runs.stream().anyMatch(run -> run == null || run.isBlank() || run.length() > 64 || run.indexOf('\0') >= 0)) {
        throw new InvalidMigrationException("runs must hold run ids: not empty, at most 64 characters, no NUL");
      }
      runs = List.copyOf(new LinkedHashSet<>(runs));
    }
    if (!dryRun && (reason == null || reason.isBlank())) {
      throw new InvalidMigrationException("say why the runs move (reason): it is kept with each run's decision");
    }
    if (reason != null && reason.length() > MAX_REASON) {
      throw new InvalidMigrationException("reason must be at most " + MAX_REASON + " characters, was "
          + reason.length());
    }
    reason = reason == null ? "" : reason.strip();
  }
}
