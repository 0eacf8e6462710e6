-- AgentLoop's tables on PostgreSQL, version 4: which group owns an agent's key. An analyst (agent-analysts, with no other
-- right to deploy) may deploy a new key, and new versions of a key its group deployed first; the first deployment
-- writes the row, and an administrator hands a key to another group (PUT /api/agents/{key}/owner). A key without a
-- row that is deployed belongs to the application, whoever deployed it before this version: an administrator hands
-- such keys to their groups. A new table only: nothing written before changes. Applied by AgentLoop itself
-- (agentloop.database.schema-update), or by a DBA or Flyway.
CREATE TABLE agentloop_agent_owner (
  agent_key   VARCHAR(255) PRIMARY KEY,
  owner_group VARCHAR(255) NOT NULL,
  assigned_by VARCHAR(255),
  assigned_at TIMESTAMP WITH TIME ZONE NOT NULL
);

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (4, 'agent owners', CURRENT_TIMESTAMP);
