-- Lifecycle operations (pause, restore, restart, resize, upgrade) and backups.

CREATE TABLE operations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('pause', 'restore', 'restart', 'resize', 'upgrade')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  -- The last step that completed: a resumed operation starts after it.
  step text,
  params jsonb NOT NULL DEFAULT '{}',
  error text,
  initiated_by uuid REFERENCES users ON DELETE SET NULL,
  initiated_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- One operation at a time per project.
CREATE UNIQUE INDEX operations_one_running ON operations (project_ref) WHERE status = 'running';
CREATE INDEX operations_project ON operations (project_ref, initiated_at DESC);

CREATE TABLE backups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  is_physical_backup boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('COMPLETED', 'FAILED', 'PENDING', 'REMOVED')),
  file_path text NOT NULL,
  size_bytes bigint NOT NULL DEFAULT 0,
  postgres_major text NOT NULL,
  inserted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX backups_project ON backups (project_ref, inserted_at DESC);

ALTER TABLE projects ADD COLUMN paused_at timestamptz;
