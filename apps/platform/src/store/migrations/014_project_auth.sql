-- The auth service of each project (services/auth): its settings in the Management API's field names
-- (/v1/projects/{ref}/config/auth; no row = the defaults of services/auth/config.ts; the SMTP password sealed),
-- and the outbox where its emails and SMS codes go while no SMTP server or SMS provider is configured.
CREATE TABLE project_auth_config (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  kind text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  -- 'outbox': kept here for the dashboard; 'smtp': sent by the project's mail server (recorded for its limits, body empty).
  sent_via text NOT NULL DEFAULT 'outbox' CHECK (sent_via IN ('outbox', 'smtp')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_outbox_project_time ON auth_outbox (project_ref, created_at DESC);

-- The auth service keeps the settings in memory and hears of changes through the gateway's directory.
CREATE TRIGGER project_auth_config_gateway_changed
  AFTER INSERT OR UPDATE OR DELETE ON project_auth_config
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();
