package dev.agentloop.internal.resume;

import java.time.Instant;

/**
 * One deployed version of an agent, with its runs.
 *
 * @param definitionId Camunda's process definition id of the version
 * @param deployedAt when its deployment was made, {@code null} where the engine does not say
 * @param openRuns its runs that have not ended (waiting or working)
 * @param runs all its runs the engine's history keeps, ended or not ({@code 0} without history)
 * @param latest whether it is the version new runs start on
 */
public record AgentVersion(int version, String definitionId, String versionTag, Instant deployedAt, long openRuns,
    long runs, boolean latest) {}
