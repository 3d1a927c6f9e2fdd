-- The AI assistant (dashboard right panel, POST /api/ai/sql/generate-v4).
--
-- What an organization lets the assistant see of its projects: nothing (disabled), the schema, the
-- schema and logs, or also data through read-only SQL. 'schema' by default: the assistant writes
-- SQL with the real table names, and reads no rows unless an owner opts in.
ALTER TABLE organizations
  ADD COLUMN ai_opt_in_level text NOT NULL DEFAULT 'schema'
  CHECK (ai_opt_in_level IN ('disabled', 'schema', 'schema_and_log', 'schema_and_log_and_data'));

-- A HIPAA project sends no project metadata (schema, logs, rows) to the model, whatever the level.
ALTER TABLE projects ADD COLUMN is_hipaa boolean NOT NULL DEFAULT false;

-- Chats follow their user across browsers: kept here per user and project, messages in the shape
-- the dashboard renders (id, role, content, parts, createdAt).
CREATE TABLE assistant_chats (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(btrim(name)) > 0 AND length(name) <= 100),
  messages jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(messages) = 'array'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistant_chats_owner ON assistant_chats (user_id, project_ref, updated_at DESC);
