-- What a project's owners set about its database server (Management API /v1/projects/{ref}/config/database/postgres,
-- /network-restrictions and /ssl-enforcement), applied by the instance provider to stratum.conf and pg_hba.conf.
ALTER TABLE projects
  -- The Postgres settings a user may change (contracts V1PostgresConfig), over the compute size's defaults.
  ADD COLUMN postgres_config jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(postgres_config) = 'object'),
  -- Networks allowed to connect as the project's users (the platform's own logins are always allowed from this machine).
  ADD COLUMN db_allowed_cidrs text[] NOT NULL DEFAULT '{0.0.0.0/0}',
  ADD COLUMN db_allowed_cidrs_v6 text[] NOT NULL DEFAULT '{::/0}',
  ADD COLUMN network_restrictions_updated_at timestamptz,
  ADD COLUMN network_restrictions_applied_at timestamptz,
  -- Users' connections must use TLS (hostssl lines).
  ADD COLUMN ssl_enforced boolean NOT NULL DEFAULT false;
