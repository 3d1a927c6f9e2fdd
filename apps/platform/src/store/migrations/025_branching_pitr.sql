-- Branching (control/branching/): a branch is a project of its own (own instance, ref, keys, status)
-- whose data directory was copied physically from its parent. The parent's production branch is a row
-- too (is_default, project_ref = the parent itself): its presence means branching is enabled.
CREATE TABLE branches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  parent_project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  project_ref text NOT NULL UNIQUE REFERENCES projects (ref) ON DELETE CASCADE,
  name text NOT NULL,
  git_branch text,
  is_default boolean NOT NULL DEFAULT false,
  persistent boolean NOT NULL DEFAULT false,
  with_data boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'CREATING_PROJECT'
    CHECK (status IN ('CREATING_PROJECT', 'RUNNING_MIGRATIONS', 'MIGRATIONS_PASSED', 'MIGRATIONS_FAILED', 'FUNCTIONS_DEPLOYED', 'FUNCTIONS_FAILED')),
  error_message text,
  -- A point-in-time branch: the parent's moment it was copied from.
  recovery_time_target timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (parent_project_ref, name)
);
CREATE INDEX branches_parent ON branches (parent_project_ref);

-- The point-in-time recovery add-on (pitr_7, pitr_14, pitr_28; NULL: none). With it the instance
-- archives its WAL under <data dir>/pitr/<ref>/wal and keeps base backups beside it.
ALTER TABLE projects ADD COLUMN pitr_variant text CHECK (pitr_variant IN ('pitr_7', 'pitr_14', 'pitr_28'));

-- Base backups of the WAL archive: a consistent online copy of the data directory, and the WAL
-- position and time it is consistent from. A restore starts from the newest one before its target.
CREATE TABLE pitr_base_backups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  directory text NOT NULL,
  timeline integer NOT NULL,
  start_wal_file text NOT NULL,
  -- When the copy became consistent (pg_backup_stop): the earliest recoverable moment it gives.
  consistent_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pitr_base_backups_project ON pitr_base_backups (project_ref, consistent_at);

-- GitHub connections (integrations/github/): a project linked to a repository, reached with a token
-- the organization gave, stored sealed and never returned.
CREATE TABLE github_connections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  project_ref text NOT NULL UNIQUE REFERENCES projects (ref) ON DELETE CASCADE,
  repository text NOT NULL,
  repository_id bigint NOT NULL,
  token_sealed text NOT NULL,
  workdir text NOT NULL DEFAULT '.',
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX github_connections_org ON github_connections (organization_id);

ALTER TABLE operations DROP CONSTRAINT operations_kind_check;
ALTER TABLE operations ADD CONSTRAINT operations_kind_check
  CHECK (kind IN ('pause', 'restore', 'restart', 'resize', 'upgrade', 'jwt_secret_rotation', 'logical_backup',
                  'branch_create', 'branch_reset', 'pitr_restore', 'pitr_base_backup'));
