-- The log store (observability/logs/): every project's log lines, one row a line, whatever the source
-- ('postgres_logs' from each instance's jsonlog files, 'edge_logs' from the gateway, later auth, storage,
-- functions). Partitioned by day on timestamp so that retention drops whole partitions instead of deleting
-- rows; log_store_maintain() creates the days ahead and drops the days past the retention. Size: about
-- 0.5 KB a line with its indexes (a busy project's million lines a day is ~0.5 GB a day).
CREATE TABLE log_events (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  project_ref text NOT NULL,
  source text NOT NULL,
  timestamp timestamptz NOT NULL,
  event_message text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'
) PARTITION BY RANGE (timestamp);

-- The per-source tables of the BigQuery form; the unified `logs` table of the ClickHouse form filters source
-- itself, so it needs the project and time alone.
CREATE INDEX log_events_project_source_time ON log_events (project_ref, source, timestamp DESC);
CREATE INDEX log_events_project_time ON log_events (project_ref, timestamp DESC);

-- How far each collector has read (file + byte offset), written in the same transaction as the lines it
-- inserted: a restart neither loses nor repeats a line.
CREATE TABLE log_positions (
  project_ref text NOT NULL,
  stream text NOT NULL,
  file text NOT NULL,
  position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_ref, stream)
);

-- Partitions from retention_days ago to tomorrow exist; older ones are dropped. Idempotent; names are
-- log_events_YYYYMMDD (UTC days).
CREATE FUNCTION log_store_maintain(retention_days integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
  day date;
  old record;
BEGIN
  FOR day IN SELECT generate_series(today - retention_days, today + 1, interval '1 day')::date LOOP
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF log_events FOR VALUES FROM (%L) TO (%L)',
      'log_events_' || to_char(day, 'YYYYMMDD'),
      (day::timestamp AT TIME ZONE 'UTC'),
      ((day + 1)::timestamp AT TIME ZONE 'UTC')
    );
  END LOOP;
  FOR old IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'log_events'::regclass AND c.relname ~ '^log_events_[0-9]{8}$'
      AND to_date(substr(c.relname, 12), 'YYYYMMDD') < today - retention_days
  LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I', old.relname);
  END LOOP;
END
$$;

SELECT log_store_maintain(7);
