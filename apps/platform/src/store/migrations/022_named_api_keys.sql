-- The new API keys beside the legacy JWT pair: publishable keys (sb_publishable_..., act as anon, safe in
-- browsers with RLS) and secret keys (sb_secret_..., act as service_role, refused from browsers). Each has
-- a name, can be made and deleted on its own, and is not a JWT: the gateway maps it to its role.
CREATE TABLE project_named_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('publishable', 'secret')),
  name text NOT NULL CHECK (name ~ '^[a-z_][a-z0-9_]+$' AND length(name) BETWEEN 4 AND 64),
  description text,
  -- Hex SHA-256 of the whole key: what the gateway looks a presented key up by.
  key_sha256 text NOT NULL UNIQUE,
  -- The whole key, sealed with the data-dir key (control/secret-box.ts): revealed to those allowed.
  key_sealed text NOT NULL,
  -- The key's first characters, shown where the key itself is not.
  prefix text NOT NULL,
  secret_jwt_template jsonb,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_ref, name)
);

CREATE TRIGGER project_named_keys_gateway_changed AFTER INSERT OR UPDATE OR DELETE ON project_named_keys
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();
