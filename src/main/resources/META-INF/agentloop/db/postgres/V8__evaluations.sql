-- AgentLoop's tables on PostgreSQL, version 8: evaluations of candidate diagrams on recorded runs and data sets.
-- agentloop_evaluation: one row per evaluation: the agent, the candidate's own key (the candidate runs under it, never
-- under the agent's key), the candidate's diagram as it would be deployed (what a promotion deploys), the evaluation's
-- choices (JSON), its status, summary (JSON), who started it and why, who promoted it and as which version.
-- agentloop_evaluation_case: one row per case: the recorded run it replays, or the data set's case (JSON), the
-- candidate's run, its status and verdict, and what the case came to (JSON: both sides, checks, marks).
-- New tables only: nothing written before changes. Applied by AgentLoop itself (agentloop.database.schema-update),
-- or by a DBA or Flyway, as version 1.
CREATE TABLE agentloop_evaluation (
  evaluation_id    VARCHAR(64)  PRIMARY KEY,
  agent_key        VARCHAR(255) NOT NULL,
  candidate_key    VARCHAR(255) NOT NULL,
  candidate_version INT,
  candidate_xml    VARCHAR      NOT NULL,
  choices          VARCHAR      NOT NULL,
  status           VARCHAR(16)  NOT NULL,
  summary          VARCHAR,
  reason           VARCHAR,
  created_by       VARCHAR(255) NOT NULL,
  created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
  heartbeat_at     TIMESTAMP WITH TIME ZONE NOT NULL,
  ended_at         TIMESTAMP WITH TIME ZONE,
  promoted_by      VARCHAR(255),
  promoted_at      TIMESTAMP WITH TIME ZONE,
  promote_reason   VARCHAR,
  promoted_version INT
);

CREATE TABLE agentloop_evaluation_case (
  evaluation_id VARCHAR(64) NOT NULL,
  case_no       INT         NOT NULL,
  recorded_run  VARCHAR(64),
  data_case     VARCHAR,
  run_id        VARCHAR(64),
  status        VARCHAR(16) NOT NULL,
  verdict       VARCHAR(16),
  result        VARCHAR,
  PRIMARY KEY (evaluation_id, case_no)
);

CREATE INDEX agentloop_evaluation_agent ON agentloop_evaluation (agent_key, created_at);
CREATE INDEX agentloop_evaluation_case_run ON agentloop_evaluation_case (run_id);

INSERT INTO agentloop_schema_version (version, description, installed_at)
  VALUES (8, 'evaluations', CURRENT_TIMESTAMP);
