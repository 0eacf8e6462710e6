-- AgentLoop's tables on PostgreSQL, version 2: what a model call's prompt cache served and stored, and the model
-- the call is priced by, beside its other costs. Columns only, all nullable: steps written before stay as
-- they are (nothing known of a cache or a model). Applied by AgentLoop itself
-- (agentloop.database.schema-update), or by a DBA or Flyway, as version 1.
ALTER TABLE agentloop_step ADD COLUMN cost_cache_read_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN cost_cache_write_tokens BIGINT;
ALTER TABLE agentloop_step ADD COLUMN cost_model VARCHAR;

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (2, 'prompt cache and model of costs', CURRENT_TIMESTAMP);
