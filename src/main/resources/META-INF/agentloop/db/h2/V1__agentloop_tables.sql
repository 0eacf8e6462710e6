-- AgentLoop's tables on H2, version 1: the step store (runs, steps, decisions, prompts) and the version table.
-- Applied by AgentLoop itself (agentloop.database.schema-update), or by a DBA or a migration tool such
-- as Flyway (its file name follows Flyway's convention) with a history table of its own.
-- Idempotent: on a database whose tables an earlier release's schema.sql created (before versioned scripts)
-- it adds only what that database lacks, keeps every row, and records version 1; so that database upgrades
-- with the same scripts and commands as a new one.
CREATE TABLE IF NOT EXISTS agentloop_run (
  run_id         VARCHAR(64)  PRIMARY KEY,
  agent_key      VARCHAR(255) NOT NULL,
  question       VARCHAR      NOT NULL,
  status         VARCHAR(32)  NOT NULL,
  status_reason  VARCHAR,
  head_step      INT,
  head_turn      INT          NOT NULL,
  step_count     INT          NOT NULL,
  version        INT          NOT NULL,
  model_calls    INT          NOT NULL,
  tool_calls     INT          NOT NULL,
  tokens         BIGINT       NOT NULL,
  created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
  ended_at       TIMESTAMP WITH TIME ZONE,
  restarted_from VARCHAR(64),
  restarted_from_step INT,
  restarted_by   VARCHAR(255),
  restart_reason VARCHAR,
  trace_deleted_at     TIMESTAMP WITH TIME ZONE,
  trace_deleted_by     VARCHAR(255),
  trace_deleted_reason VARCHAR,
  trace_deleted_steps  INT
);
-- added after the first release: a database of then gets them here
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS restarted_by VARCHAR(255);
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS restart_reason VARCHAR;
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_by VARCHAR(255);
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_reason VARCHAR;
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_steps INT;

CREATE TABLE IF NOT EXISTS agentloop_step (
  run_id     VARCHAR(64)  NOT NULL,
  step_no    INT          NOT NULL,
  parent_no  INT,
  kind       VARCHAR(32)  NOT NULL,
  turn       INT          NOT NULL,
  content    VARCHAR      NOT NULL,
  status     VARCHAR(16)  NOT NULL,
  author     VARCHAR(255) NOT NULL,
  created_at TIMESTAMP WITH TIME ZONE NOT NULL,
  supersedes INT,
  reason     VARCHAR,
  cost_model_call        BOOLEAN,
  cost_latency_ms        BIGINT,
  cost_prompt_tokens     BIGINT,
  cost_completion_tokens BIGINT,
  cost_total_tokens      BIGINT,
  PRIMARY KEY (run_id, step_no)
);
-- added after the first release: a database of then gets them here
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_model_call BOOLEAN;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_latency_ms BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_prompt_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_completion_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_total_tokens BIGINT;

CREATE TABLE IF NOT EXISTS agentloop_decision (
  run_id     VARCHAR(64)  NOT NULL,
  step_no    INT          NOT NULL,
  decision   VARCHAR(32)  NOT NULL,
  author     VARCHAR(255) NOT NULL,
  reason     VARCHAR,
  decided_at TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE IF NOT EXISTS agentloop_prompt (
  run_id    VARCHAR(64) NOT NULL,
  step_no   INT         NOT NULL,
  purpose   VARCHAR(16) NOT NULL,
  base_step INT,
  segments  VARCHAR     NOT NULL,
  tools     VARCHAR,
  PRIMARY KEY (run_id, step_no)
);

-- the recent active path of a run, newest first: what every think/act reads. Queries order by all
-- index columns (run_id, status, step_no DESC) so that H2, too, reads it sorted instead of sorting.
CREATE INDEX IF NOT EXISTS agentloop_step_recent ON agentloop_step (run_id, status, step_no DESC);
CREATE INDEX IF NOT EXISTS agentloop_step_kind ON agentloop_step (run_id, kind, step_no DESC);
CREATE INDEX IF NOT EXISTS agentloop_step_author ON agentloop_step (author, run_id);
CREATE INDEX IF NOT EXISTS agentloop_run_restarted_from ON agentloop_run (restarted_from);
CREATE INDEX IF NOT EXISTS agentloop_run_agent ON agentloop_run (agent_key, created_at);
CREATE INDEX IF NOT EXISTS agentloop_run_status ON agentloop_run (agent_key, status, created_at);
CREATE INDEX IF NOT EXISTS agentloop_decision_run ON agentloop_decision (run_id, step_no);

-- which versions of AgentLoop's tables are in place: each script adds its row
CREATE TABLE IF NOT EXISTS agentloop_schema_version (
  version      INT          PRIMARY KEY,
  description  VARCHAR(255) NOT NULL,
  installed_at TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO agentloop_schema_version (version, description, installed_at)
  SELECT 1, 'agentloop tables', CURRENT_TIMESTAMP
  WHERE NOT EXISTS (SELECT 1 FROM agentloop_schema_version WHERE version = 1);
