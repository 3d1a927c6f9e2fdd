-- Per-project JWT secret and the legacy API keys (anon, service_role) signed with it, and the
-- JWT secret updates (rotations) with their status for the dashboard's polling.

CREATE TABLE project_api_keys (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  -- Sealed with the data directory's key (control/secret-box.ts), like the database passwords.
  jwt_secret_sealed text NOT NULL,
  -- The anon key is public by design; the service_role key bypasses RLS and stays sealed.
  anon_key text NOT NULL,
  service_role_key_sealed text NOT NULL,
  legacy_enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jwt_secret_updates (
  -- The change_tracking_id the dashboard polls with.
  id uuid PRIMARY KEY,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'Updating' CHECK (status IN ('Updating', 'Updated', 'Failed')),
  -- The last completed step (keys/rotation.ts PROGRESS); a resumed update starts after it.
  progress integer NOT NULL DEFAULT 0,
  -- Set while Updating, cleared when the update ends either way.
  new_secret_sealed text,
  new_anon_key text,
  new_service_role_key_sealed text,
  error text,
  initiated_by uuid REFERENCES users ON DELETE SET NULL,
  initiated_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- One update at a time per project.
CREATE UNIQUE INDEX jwt_secret_updates_one_running ON jwt_secret_updates (project_ref) WHERE status = 'Updating';
CREATE INDEX jwt_secret_updates_project ON jwt_secret_updates (project_ref, initiated_at DESC);
