-- Query history (issue 15): each member's runs through the SQL editor's route, per project. The newest
-- SQL_HISTORY_RETENTION (contracts) per member and project are kept; sql-runner/history.ts deletes older ones on insert.
CREATE TABLE query_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  query text NOT NULL,
  ran_at timestamptz NOT NULL DEFAULT now(),
  duration_ms integer NOT NULL,
  row_count bigint,
  status text NOT NULL CHECK (status IN ('ok', 'error')),
  error_message text
);
CREATE INDEX query_history_member ON query_history (project_ref, user_id, id DESC);
