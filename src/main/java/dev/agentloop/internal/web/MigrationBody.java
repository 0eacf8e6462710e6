package dev.agentloop.internal.web;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * {@code POST /api/agents/{key}/migrations}: which runs move to which version, why, and what becomes of a busy one.
 *
 * @param runs the runs to move, by id; or else {@code fromVersion}
 * @param fromVersion every open run of this version moves; or else {@code runs}
 * @param dryRun {@code true}: only say per run what would happen, change nothing (default {@code false})
 * @param reason why, kept with every run's decision; needed unless {@code dryRun}
 * @param whenBusy a run in the middle of a model or tool call: {@code refuse} it (the default), or
 *     {@code moveWhenWaiting}: it moves when it next waits
 */
record MigrationBody(
    @NotNull(message = "must be the version of the agent the runs move to") @Min(value = 1, message = "must be a"
        + " version of the agent, from 1") Integer toVersion,
    @Size(max = 10_000, message = "must name at most 10000 runs") List<String> runs,
    @Min(value = 1, message = "must be a version of the agent, from 1") Integer fromVersion,
    Boolean dryRun,
    @Size(max = 2000, message = "must be at most 2000 characters") String reason,
    @Pattern(regexp = "refuse|moveWhenWaiting", message = "must be 'refuse' (a busy run stays on its version) or"
        + " 'moveWhenWaiting' (it moves when it next waits)") String whenBusy) {

  boolean moveWhenWaiting() {
    return "moveWhenWaiting".equals(whenBusy);
  }
}
