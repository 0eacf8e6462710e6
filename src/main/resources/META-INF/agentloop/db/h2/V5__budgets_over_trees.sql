-- AgentLoop's tables on H2, version 5: a run's budget over its turns and the runs it calls.
-- agentloop_run: the runs that called it (callers, root first: its tree), and its budget where it is not its
-- agent's (a person raised it, or its caller had less left when it started it); NULL: the agent's settings.
-- agentloop_tree_use: one row per run that called other agents, charged as those runs (and theirs) spend, never
-- when they end: what they spent, the budget and own spending of the run when it last called, and the run that
-- spent last. Guarded updates of these rows keep runs side by side within their callers' budgets on every node of
-- a cluster; they lock no run's row, so a stop, which locks runs from the top down, never waits on them in a cycle.
-- Columns and a new table only: runs written before keep their agents' budgets. Applied by AgentLoop itself
-- (agentloop.database.schema-update), or by a DBA or Flyway, as version 1.
ALTER TABLE agentloop_run ADD COLUMN callers VARCHAR;
ALTER TABLE agentloop_run ADD COLUMN max_steps INT;
ALTER TABLE agentloop_run ADD COLUMN max_model_calls INT;
ALTER TABLE agentloop_run ADD COLUMN max_tool_calls INT;
ALTER TABLE agentloop_run ADD COLUMN max_tokens BIGINT;

CREATE TABLE agentloop_tree_use (
  run_id          VARCHAR(64) PRIMARY KEY,
  model_calls     INT         NOT NULL,
  tool_calls      INT         NOT NULL,
  tokens          BIGINT      NOT NULL,
  own_model_calls INT         NOT NULL,
  own_tool_calls  INT         NOT NULL,
  own_tokens      BIGINT      NOT NULL,
  max_model_calls INT         NOT NULL,
  max_tool_calls  INT         NOT NULL,
  max_tokens      BIGINT      NOT NULL,
  last_by         VARCHAR(64)
);

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (5, 'budgets over trees', CURRENT_TIMESTAMP);
