-- One durable job runner (control/operations/runner.ts) for every long operation: the lifecycle
-- operations, JWT secret rotations and logical backups are all rows of `operations`, the runner's
-- queue and record at once (no second queue beside it).

ALTER TABLE operations DROP CONSTRAINT operations_kind_check;
ALTER TABLE operations ADD CONSTRAINT operations_kind_check
  CHECK (kind IN ('pause', 'restore', 'restart', 'resize', 'upgrade', 'jwt_secret_rotation', 'logical_backup'));
ALTER TABLE operations DROP CONSTRAINT operations_status_check;
ALTER TABLE operations ADD CONSTRAINT operations_status_check
  CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled'));

-- Operations of one lane run one at a time per project: 'instance' (they use or change the
-- Postgres instance) or 'keys' (the JWT secret). A rotation may run during a restart.
ALTER TABLE operations ADD COLUMN lane text NOT NULL DEFAULT 'instance' CHECK (lane IN ('instance', 'keys'));
-- When the runner first took it up (NULL: still queued).
ALTER TABLE operations ADD COLUMN started_at timestamptz;
-- The step being run right now; NULL between steps. A running step is never interrupted.
ALTER TABLE operations ADD COLUMN current_step text;
-- Set by a cancel; the runner stops at the next step boundary and rolls back.
ALTER TABLE operations ADD COLUMN cancel_requested_at timestamptz;
-- The project's status when the operation was accepted: what a cancel before the first step restores.
ALTER TABLE operations ADD COLUMN previous_status text;
UPDATE operations SET started_at = initiated_at;

DROP INDEX operations_one_running;
CREATE UNIQUE INDEX operations_one_running ON operations (project_ref, lane) WHERE status = 'running';
CREATE INDEX operations_running ON operations (initiated_at) WHERE status = 'running';

-- JWT secret updates become operations (same id: the change_tracking_id). Their table keeps only
-- what an update carries (the new secret and keys, sealed), until the update ends.
INSERT INTO operations (id, project_ref, kind, lane, status, step, error, initiated_by, initiated_at, updated_at, finished_at, started_at)
SELECT id, project_ref, 'jwt_secret_rotation', 'keys',
  CASE status WHEN 'Updating' THEN 'running' WHEN 'Updated' THEN 'succeeded' ELSE 'failed' END,
  CASE progress WHEN 0 THEN NULL WHEN 1 THEN 'sign-keys' ELSE 'update-keys' END,
  error, initiated_by, initiated_at, updated_at, finished_at, initiated_at
FROM jwt_secret_updates;
DROP INDEX jwt_secret_updates_one_running;
ALTER TABLE jwt_secret_updates
  DROP COLUMN status, DROP COLUMN progress, DROP COLUMN error, DROP COLUMN initiated_by,
  DROP COLUMN updated_at, DROP COLUMN finished_at,
  ADD CONSTRAINT jwt_secret_updates_operation FOREIGN KEY (id) REFERENCES operations (id) ON DELETE CASCADE;
