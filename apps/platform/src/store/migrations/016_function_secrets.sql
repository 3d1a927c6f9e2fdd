-- Edge function secrets (Management API /v1/projects/{ref}/secrets): each project's own environment
-- variables for its functions. Values are sealed with the data-dir key (control/secret-box.ts) and only
-- their SHA-256 digest is ever answered, as on Supabase.
CREATE TABLE function_secrets (
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_]*$' AND name !~* '^SUPABASE_' AND length(name) <= 256),
  value_sealed text NOT NULL,
  -- Hex SHA-256 of the value: what GET answers, computed once at write time.
  value_sha256 text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_ref, name)
);
