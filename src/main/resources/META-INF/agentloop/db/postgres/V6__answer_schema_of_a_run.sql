-- AgentLoop's tables on PostgreSQL, version 6: the answer schema a run's start gave (POST /api/runs with
-- "answerSchema", or the variable answerSchema a calling process passes in), which the run's answers must match
-- instead of its agent's own. A new nullable column only: runs started before it answer as their agents say.
-- Applied by AgentLoop itself (agentloop.database.schema-update), or by a DBA or Flyway, like the scripts before it.
ALTER TABLE agentloop_run ADD COLUMN answer_schema VARCHAR;

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (6, 'answer schema of a run', CURRENT_TIMESTAMP);
