-- AgentLoop's tables on PostgreSQL, version 7: runs moved to another version of their agent. A decision on a run
-- says from which version to which it moved (nullable columns: the decisions written before stay as they are);
-- a migration keeps who asked for it, why and to which version, and what became of each run it named (moved,
-- refused with the reason in words, or waiting to move when the run next waits). Applied by AgentLoop itself
-- (agentloop.database.schema-update), or by a DBA or Flyway, as version 1.
ALTER TABLE agentloop_decision ADD COLUMN from_version INT;
ALTER TABLE agentloop_decision ADD COLUMN to_version INT;

CREATE TABLE agentloop_migration (
  migration_id  VARCHAR(64)  PRIMARY KEY,
  agent_key     VARCHAR(255) NOT NULL,
  to_definition VARCHAR(64)  NOT NULL,
  to_version    INT          NOT NULL,
  from_version  INT,
  when_busy     VARCHAR(32)  NOT NULL,
  requested_by  VARCHAR(255) NOT NULL,
  reason        VARCHAR      NOT NULL,
  requested_at  TIMESTAMP WITH TIME ZONE NOT NULL,
  run_count     INT          NOT NULL,
  batch_id      VARCHAR(64)
);

CREATE TABLE agentloop_migration_run (
  migration_id VARCHAR(64) NOT NULL,
  run_id       VARCHAR(64) NOT NULL,
  outcome      VARCHAR(16) NOT NULL,
  from_version INT,
  detail       VARCHAR     NOT NULL,
  decided_at   TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (migration_id, run_id)
);

-- a run's pending move, looked up when the run reaches a wait; the pending ones, found by the sweep
CREATE INDEX agentloop_migration_run_run ON agentloop_migration_run (run_id, outcome);
CREATE INDEX agentloop_migration_run_outcome ON agentloop_migration_run (outcome);
CREATE INDEX agentloop_migration_agent ON agentloop_migration (agent_key, requested_at);

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (7, 'run migrations', CURRENT_TIMESTAMP);
