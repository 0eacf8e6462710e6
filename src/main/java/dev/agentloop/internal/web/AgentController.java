package dev.agentloop.internal.web;

import dev.agentloop.internal.resume.AgentMigrations;
import dev.agentloop.internal.resume.AgentVersion;
import dev.agentloop.internal.resume.MigrationReport;
import dev.agentloop.internal.resume.MigrationRequest;
import dev.agentloop.internal.security.RunAccess;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/agents/{key}}: an agent's versions with their runs, and moving its waiting runs to another version
 * (a migration), with a dry run first; a migration of many runs is a batch whose progress is read here too. Who may
 * is decided by the service ({@link AgentMigrations}), for every caller.
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/agents/{key}", produces = "application/json")
class AgentController {

  private final AgentMigrations migrations;
  private final RunAccess access;
  private final String basePath;

  AgentController(AgentMigrations migrations, RunAccess access, String basePath) {
    this.migrations = migrations;
    this.access = access;
    this.basePath = basePath;
  }

  /** The agent's versions, oldest first, each with its open runs and all its runs. */
  @GetMapping("/versions")
  List<AgentVersion> versions(@PathVariable String key) {
    RunSearchParameters.agent(key);
    return migrations.versions(key);
  }

  /**
   * Moves runs to a version of the agent, or (dry run) says what would happen. {@code 200} with each run's outcome
   * when the request moved them itself; {@code 202} when a batch moves them, with the migration to follow.
   */
  @PostMapping(path = "/migrations", consumes = "application/json")
  ResponseEntity<MigrationReport> migrate(@PathVariable String key, @Valid @RequestBody MigrationBody body) {
    RunSearchParameters.agent(key);
    MigrationReport report = migrations.migrate(new MigrationRequest(key, body.toVersion(), body.runs(),
        body.fromVersion(), Boolean.TRUE.equals(body.dryRun()), body.reason(), body.moveWhenWaiting(),
        access.currentUser()));
    if (report.batchId() == null) {
      return ResponseEntity.ok(report);
    }
    return ResponseEntity.accepted().location(URI.create(basePath + "/agents/" + key + "/migrations/"
        + report.migrationId())).body(report);
  }

  /** How a migration stands: what became of each of its runs so far. */
  @GetMapping("/migrations/{migrationId}")
  MigrationReport migration(@PathVariable String key, @PathVariable String migrationId) {
    RunSearchParameters.agent(key);
    return migrations.progress(key, migrationId);
  }
}
