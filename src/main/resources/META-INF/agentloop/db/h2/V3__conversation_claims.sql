-- AgentLoop's tables on H2, version 3: which run holds a conversation id (a client's id, kept as the run's
-- business key). The primary key makes "one open run per conversation id" hold in the database, so across all
-- nodes of a cluster: a start writes its claim in the same transaction as its process instance, and of two
-- starts with one id only one commits. A later start takes the row over once the run it names has ended. A new
-- table only: nothing written before changes (runs started before it hold their ids by their business key,
-- which a start checks too). Applied by AgentLoop itself (agentloop.database.schema-update), or by a DBA or
-- Flyway, as version 1.
CREATE TABLE agentloop_conversation (
  conversation_id VARCHAR(255) PRIMARY KEY,
  run_id          VARCHAR(64)  NOT NULL,
  claimed_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX agentloop_conversation_run ON agentloop_conversation (run_id);

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (3, 'conversation claims', CURRENT_TIMESTAMP);
