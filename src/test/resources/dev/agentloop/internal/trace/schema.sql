-- The tests' copy of AgentLoop's step store as the releases before versioned scripts created it (their
-- schema.sql, run at every start; H2 and PostgreSQL): the tests make "a database of an earlier release" with it,
-- which META-INF/agentloop/db/<database>/V1__agentloop_tables.sql brings to version 1.
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
  restarted_from_step INT
);

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
  PRIMARY KEY (run_id, step_no)
);

-- the recent active path of a run, newest first: what every think/act reads. Queries order by all
-- index columns (run_id, status, step_no DESC) so that H2, too, reads it sorted instead of sorting.
CREATE INDEX IF NOT EXISTS agentloop_step_recent ON agentloop_step (run_id, status, step_no DESC);
CREATE INDEX IF NOT EXISTS agentloop_step_kind ON agentloop_step (run_id, kind, step_no DESC);
-- the runs restarted from a run (the "restarts" link), and the recent runs of an agent
CREATE INDEX IF NOT EXISTS agentloop_run_restarted_from ON agentloop_run (restarted_from);
CREATE INDEX IF NOT EXISTS agentloop_run_agent ON agentloop_run (agent_key, created_at);
-- who restarted a run and why (added after the first release: databases of then get them here)
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS restarted_by VARCHAR(255);
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS restart_reason VARCHAR;
-- the tombstone of a trace an operator deleted: who, when, why, how many steps (see TraceRetention)
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_by VARCHAR(255);
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_reason VARCHAR;
ALTER TABLE agentloop_run ADD COLUMN IF NOT EXISTS trace_deleted_steps INT;
-- what people decided on a step without writing one: a plan accepted unchanged, an answer accepted or
-- regenerated, a run stopped after it (added later: databases of then get it here)
CREATE TABLE IF NOT EXISTS agentloop_decision (
  run_id     VARCHAR(64)  NOT NULL,
  step_no    INT          NOT NULL,
  decision   VARCHAR(32)  NOT NULL,
  author     VARCHAR(255) NOT NULL,
  reason     VARCHAR,
  decided_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS agentloop_decision_run ON agentloop_decision (run_id, step_no);
-- what each model or tool call cost, on the step it wrote (the first step of a model call, the
-- observation of a tool call), NULL on other steps; NULL token counts on a model call's step: the
-- endpoint reported none. Added later: databases of then get the columns here, and TraceSchema moves
-- the rows of their agentloop_step_cost, where the costs were kept before, into them.
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_model_call BOOLEAN;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_latency_ms BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_prompt_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_completion_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN IF NOT EXISTS cost_total_tokens BIGINT;
-- the messages and tools each model call received, as changes of the previous prompt (see PromptArchive)
CREATE TABLE IF NOT EXISTS agentloop_prompt (
  run_id    VARCHAR(64) NOT NULL,
  step_no   INT         NOT NULL,
  purpose   VARCHAR(16) NOT NULL,
  base_step INT,
  segments  VARCHAR     NOT NULL,
  tools     VARCHAR,
  PRIMARY KEY (run_id, step_no)
);
-- the search of runs by status and who wrote steps in them
CREATE INDEX IF NOT EXISTS agentloop_run_status ON agentloop_run (agent_key, status, created_at);
CREATE INDEX IF NOT EXISTS agentloop_step_author ON agentloop_step (author, run_id);
