-- Storage settings of each project (/v1/projects/{ref}/config/storage): the largest object any of its
-- buckets accepts. No row = the installation's STRATUM_STORAGE_MAX_FILE_BYTES.
CREATE TABLE project_storage_config (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  file_size_limit bigint NOT NULL CHECK (file_size_limit >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
