-- Every request through a project's URL (gateway/request-log.ts writes them in batches). The API keys page
-- reads the newest request per key; the logs explorer will scan a project's requests by time.
CREATE TABLE api_request_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  timestamp timestamptz NOT NULL,
  project_ref text NOT NULL,
  service text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status smallint NOT NULL,
  duration_ms real NOT NULL,
  role text,
  signature_prefix text,
  user_agent text,
  client_address text
);

CREATE INDEX api_request_log_project_time ON api_request_log (project_ref, timestamp DESC);
CREATE INDEX api_request_log_key_time ON api_request_log (project_ref, signature_prefix, timestamp DESC);
