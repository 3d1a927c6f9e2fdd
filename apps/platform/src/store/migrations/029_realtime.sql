-- Realtime (issue 28): its settings per project, as the Management API's /v1/projects/{ref}/config/realtime shows
-- them. A null column (or no row) takes the installation's default (services/realtime/config.ts). The gateway's
-- directory holds them in memory and hears each change (migration 013's trigger).
CREATE TABLE project_realtime_config (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  private_only boolean,
  suspend boolean,
  connection_pool integer CHECK (connection_pool BETWEEN 1 AND 100),
  max_concurrent_users integer CHECK (max_concurrent_users BETWEEN 1 AND 50000),
  max_events_per_second integer CHECK (max_events_per_second BETWEEN 1 AND 50000),
  max_bytes_per_second integer CHECK (max_bytes_per_second BETWEEN 1 AND 10000000),
  max_channels_per_client integer CHECK (max_channels_per_client BETWEEN 1 AND 10000),
  max_joins_per_second integer CHECK (max_joins_per_second BETWEEN 1 AND 5000),
  max_presence_events_per_second integer CHECK (max_presence_events_per_second BETWEEN 1 AND 5000),
  max_payload_size_in_kb integer CHECK (max_payload_size_in_kb BETWEEN 1 AND 10000),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER project_realtime_config_gateway_changed AFTER INSERT OR UPDATE OR DELETE ON project_realtime_config
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();

-- Realtime's usage beside the instance's (observability/usage/): sockets connected at the sample, and messages per
-- second (frames to and from clients) since the previous one.
ALTER TABLE usage_samples ADD COLUMN realtime_connections integer NOT NULL DEFAULT 0;
ALTER TABLE usage_samples ADD COLUMN realtime_messages_per_second real NOT NULL DEFAULT 0;
