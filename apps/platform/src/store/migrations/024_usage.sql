-- Usage collection and resource warnings (observability/usage/).
-- The disk quota resource warnings measure against (8 GB by default, up to 200 GB on the Compute and Disk page),
-- and the read-only mode the collector turns on at 95% of it: when it was turned on, and until when the owner's
-- temporary override lets writes through.
ALTER TABLE projects ADD COLUMN disk_quota_bytes bigint NOT NULL DEFAULT 8589934592 CHECK (disk_quota_bytes > 0);
ALTER TABLE projects ADD COLUMN readonly_since timestamptz;
ALTER TABLE projects ADD COLUMN readonly_override_until timestamptz;
-- Whether default_transaction_read_only is set in the instance now (off during an override).
ALTER TABLE projects ADD COLUMN readonly_applied boolean NOT NULL DEFAULT false;

-- One row per project and sample: raw every few seconds for a day, then 5-minute averages (bucket_seconds = 300)
-- until the retention drops them (usage/store.ts maintainUsage).
CREATE TABLE usage_samples (
  project_ref text NOT NULL,
  at timestamptz NOT NULL,
  bucket_seconds integer NOT NULL DEFAULT 0,
  disk_bytes bigint,
  cpu_percent real NOT NULL,
  memory_bytes bigint NOT NULL,
  connections integer NOT NULL,
  read_bytes_per_second real NOT NULL,
  write_bytes_per_second real NOT NULL
);
CREATE INDEX usage_samples_project_at ON usage_samples (project_ref, at);
