import type pg from 'pg'
import { AUTH_ADMIN_ROLE, authAdminPassword, inLoginTransaction, READONLY_ROLE, USER_ROLE } from '../../control/bootstrap-roles.js'

/**
 * The steps of this schema, each recorded in auth.schema_migrations (GoTrue's table name) once in place: 2 added MFA,
 * 3 the rate-limit windows, 4 passkeys. TABLES brings any earlier state to the newest; a project is done when every
 * step is recorded (a step whose record is gone, e.g. its tables dropped by hand, makes TABLES run again).
 */
const SCHEMA_VERSIONS = ['stratum_auth_2', 'stratum_auth_3', 'stratum_auth_4']

/**
 * Supabase Auth's tables in a project's `auth` schema, with the columns that supabase-js users and SQL
 * written for Supabase rely on (auth.users.id, email, raw_user_meta_data, created_at, triggers on
 * auth.users ...). Owned by supabase_auth_admin, the auth service's login; `postgres` may read and
 * write them, put triggers on them and drop those (as a member of the owner role); the SQL editor's
 * read-only role reads them without the columns that hold secrets.
 */
const TABLES = `
  CREATE TABLE IF NOT EXISTS auth.schema_migrations (version varchar(255) PRIMARY KEY);

  CREATE TABLE IF NOT EXISTS auth.users (
    instance_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    aud varchar(255) NOT NULL DEFAULT 'authenticated',
    role varchar(255) NOT NULL DEFAULT 'authenticated',
    email varchar(255),
    encrypted_password varchar(255),
    email_confirmed_at timestamptz,
    invited_at timestamptz,
    confirmation_token varchar(255) NOT NULL DEFAULT '',
    confirmation_sent_at timestamptz,
    recovery_token varchar(255) NOT NULL DEFAULT '',
    recovery_sent_at timestamptz,
    email_change_token_new varchar(255) NOT NULL DEFAULT '',
    email_change varchar(255) NOT NULL DEFAULT '',
    email_change_sent_at timestamptz,
    last_sign_in_at timestamptz,
    raw_app_meta_data jsonb NOT NULL DEFAULT '{}',
    raw_user_meta_data jsonb NOT NULL DEFAULT '{}',
    is_super_admin boolean,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    phone text UNIQUE,
    phone_confirmed_at timestamptz,
    phone_change text NOT NULL DEFAULT '',
    phone_change_token varchar(255) NOT NULL DEFAULT '',
    phone_change_sent_at timestamptz,
    confirmed_at timestamptz GENERATED ALWAYS AS (least(email_confirmed_at, phone_confirmed_at)) STORED,
    email_change_token_current varchar(255) NOT NULL DEFAULT '',
    email_change_confirm_status smallint NOT NULL DEFAULT 0,
    banned_until timestamptz,
    reauthentication_token varchar(255) NOT NULL DEFAULT '',
    reauthentication_sent_at timestamptz,
    is_sso_user boolean NOT NULL DEFAULT false,
    deleted_at timestamptz,
    is_anonymous boolean NOT NULL DEFAULT false
  );
  CREATE UNIQUE INDEX IF NOT EXISTS users_email_partial_key ON auth.users (lower(email)) WHERE email IS NOT NULL AND is_sso_user = false;
  CREATE INDEX IF NOT EXISTS users_instance_id_idx ON auth.users (instance_id);

  CREATE TABLE IF NOT EXISTS auth.identities (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider_id text NOT NULL,
    user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    identity_data jsonb NOT NULL,
    provider text NOT NULL,
    last_sign_in_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    email text GENERATED ALWAYS AS (lower(identity_data ->> 'email')) STORED,
    UNIQUE (provider_id, provider)
  );
  CREATE INDEX IF NOT EXISTS identities_user_id_idx ON auth.identities (user_id);

  CREATE TABLE IF NOT EXISTS auth.sessions (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    factor_id uuid,
    aal text NOT NULL DEFAULT 'aal1',
    not_after timestamptz,
    refreshed_at timestamp,
    user_agent text,
    ip inet,
    tag text,
    -- Not in GoTrue: which JWT secret the session was started under; a rotation ends the session.
    jwt_secret_hash text
  );
  CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON auth.sessions (user_id);

  CREATE TABLE IF NOT EXISTS auth.refresh_tokens (
    instance_id uuid,
    id bigserial PRIMARY KEY,
    token varchar(255) NOT NULL UNIQUE,
    user_id varchar(255),
    revoked boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    parent varchar(255),
    session_id uuid REFERENCES auth.sessions (id) ON DELETE CASCADE
  );
  CREATE INDEX IF NOT EXISTS refresh_tokens_session_id_revoked_idx ON auth.refresh_tokens (session_id, revoked);
  CREATE INDEX IF NOT EXISTS refresh_tokens_parent_idx ON auth.refresh_tokens (parent);

  -- PKCE: an emailed link's code_challenge until the link is opened, then the one-time auth code.
  CREATE TABLE IF NOT EXISTS auth.flow_state (
    id uuid PRIMARY KEY,
    user_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
    auth_code text NOT NULL,
    code_challenge_method text NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
    code_challenge text NOT NULL,
    provider_type text NOT NULL,
    provider_access_token text,
    provider_refresh_token text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    authentication_method text NOT NULL,
    auth_code_issued_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS idx_auth_code ON auth.flow_state (auth_code);
  CREATE INDEX IF NOT EXISTS idx_user_id_auth_method ON auth.flow_state (user_id, authentication_method);

  -- MFA (schema 2), as GoTrue's migrations leave them: factors, their challenges, and each session's
  -- authentication methods (the access token's amr claim; a factor's method makes the session aal2).
  DO $$ BEGIN CREATE TYPE auth.factor_type AS ENUM ('totp', 'webauthn', 'phone'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
  DO $$ BEGIN CREATE TYPE auth.factor_status AS ENUM ('unverified', 'verified'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
  DO $$ BEGIN CREATE TYPE auth.aal_level AS ENUM ('aal1', 'aal2', 'aal3'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;

  CREATE TABLE IF NOT EXISTS auth.mfa_factors (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    friendly_name text,
    factor_type auth.factor_type NOT NULL,
    status auth.factor_status NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    -- Not in clear as GoTrue keeps it by default: sealed with the platform's key (services/auth/totp.ts).
    secret text,
    phone text UNIQUE DEFAULT NULL,
    last_challenged_at timestamptz UNIQUE DEFAULT NULL,
    web_authn_credential jsonb,
    web_authn_aaguid uuid,
    last_webauthn_challenge_data jsonb
  );
  COMMENT ON TABLE auth.mfa_factors IS 'auth: stores metadata about factors';
  CREATE UNIQUE INDEX IF NOT EXISTS mfa_factors_user_friendly_name_unique ON auth.mfa_factors (friendly_name, user_id) WHERE trim(friendly_name) <> '';
  CREATE INDEX IF NOT EXISTS factor_id_created_at_idx ON auth.mfa_factors (user_id, created_at);
  CREATE INDEX IF NOT EXISTS mfa_factors_user_id_idx ON auth.mfa_factors (user_id);
  CREATE UNIQUE INDEX IF NOT EXISTS unique_verified_phone_factor ON auth.mfa_factors (user_id, phone);

  CREATE TABLE IF NOT EXISTS auth.mfa_challenges (
    id uuid PRIMARY KEY,
    factor_id uuid NOT NULL REFERENCES auth.mfa_factors (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    verified_at timestamptz,
    ip_address inet NOT NULL,
    otp_code text,
    web_authn_session_data jsonb
  );
  COMMENT ON TABLE auth.mfa_challenges IS 'auth: stores metadata about challenge requests made';
  CREATE INDEX IF NOT EXISTS mfa_challenge_created_at_idx ON auth.mfa_challenges (created_at DESC);

  CREATE TABLE IF NOT EXISTS auth.mfa_amr_claims (
    session_id uuid NOT NULL REFERENCES auth.sessions (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    authentication_method text NOT NULL,
    id uuid CONSTRAINT amr_id_pk PRIMARY KEY,
    CONSTRAINT mfa_amr_claims_session_id_authentication_method_pkey UNIQUE (session_id, authentication_method)
  );
  COMMENT ON TABLE auth.mfa_amr_claims IS 'auth: stores authenticator method reference claims for multi factor authentication';

  -- Not in GoTrue (schema 3): the service's rate-limit windows (services/auth/rate-limit.ts), here so that they
  -- outlive a restart of the platform.
  CREATE TABLE IF NOT EXISTS auth.stratum_rate_limits (
    key text PRIMARY KEY,
    window_ends_at timestamptz NOT NULL,
    hits integer NOT NULL
  );

  -- Passkeys (schema 4), as GoTrue's 20260302000000_add_passkeys migration has them: each user's discoverable
  -- credentials (the COSE public key, the signature counter) and the server side of every WebAuthn ceremony
  -- (its challenge, single use: deleted when answered, refused after expires_at).
  CREATE TABLE IF NOT EXISTS auth.webauthn_credentials (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    credential_id bytea NOT NULL,
    public_key bytea NOT NULL,
    attestation_type text NOT NULL DEFAULT '',
    aaguid uuid,
    sign_count bigint NOT NULL DEFAULT 0,
    transports jsonb NOT NULL DEFAULT '[]'::jsonb,
    backup_eligible boolean NOT NULL DEFAULT false,
    backed_up boolean NOT NULL DEFAULT false,
    friendly_name text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    CONSTRAINT webauthn_credentials_pkey PRIMARY KEY (id)
  );
  CREATE UNIQUE INDEX IF NOT EXISTS webauthn_credentials_credential_id_key ON auth.webauthn_credentials (credential_id);
  CREATE INDEX IF NOT EXISTS webauthn_credentials_user_id_idx ON auth.webauthn_credentials (user_id);

  CREATE TABLE IF NOT EXISTS auth.webauthn_challenges (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
    challenge_type text NOT NULL CHECK (challenge_type IN ('signup', 'registration', 'authentication')),
    session_data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    CONSTRAINT webauthn_challenges_pkey PRIMARY KEY (id)
  );
  CREATE INDEX IF NOT EXISTS webauthn_challenges_user_id_idx ON auth.webauthn_challenges (user_id);
  CREATE INDEX IF NOT EXISTS webauthn_challenges_expires_at_idx ON auth.webauthn_challenges (expires_at);

  CREATE TABLE IF NOT EXISTS auth.audit_log_entries (
    instance_id uuid,
    id uuid PRIMARY KEY,
    payload json,
    created_at timestamptz NOT NULL DEFAULT now(),
    ip_address varchar(64) NOT NULL DEFAULT ''
  );
`

/** What the SQL editor's read-only role may not read: password hashes and one-time token hashes. */
const SECRET_USER_COLUMNS = new Set([
  'encrypted_password',
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
  'phone_change_token',
  'reauthentication_token',
])

/**
 * Makes the project's `auth` schema what the auth service (services/auth) needs; idempotent and cheap
 * once done. Runs as the platform's superuser when a project is created, and for projects made before
 * the auth service, once per project and process before its first auth request.
 */
export async function ensureAuthSchema(client: pg.Client, adminPassword: string): Promise<void> {
  // The auth service's own login: what touches auth's tables (which `postgres`, a member of their owner, can change)
  // runs in its session, never as a role SET over this superuser's session (inLoginTransaction says why).
  const owner = { user: AUTH_ADMIN_ROLE, password: authAdminPassword(adminPassword) }
  const done = await client.query(
    `SELECT 1 FROM pg_tables WHERE schemaname = 'auth' AND tablename = 'schema_migrations'
       AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${AUTH_ADMIN_ROLE}' AND rolcanlogin)`,
  )
  if (done.rowCount) {
    const recorded = await inLoginTransaction(client, owner, (session) =>
      session.query('SELECT 1 FROM auth.schema_migrations WHERE version = ANY($1::text[])', [SCHEMA_VERSIONS]),
    )
    if (recorded.rowCount === SCHEMA_VERSIONS.length) return
  }
  // The role, its login and the schema: statements that run no code of the tenant's.
  await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${AUTH_ADMIN_ROLE}') THEN CREATE ROLE ${AUTH_ADMIN_ROLE}; END IF;
    END $$`)
  await client.query(`ALTER ROLE ${AUTH_ADMIN_ROLE} WITH LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS`)
  await client.query(`ALTER ROLE ${AUTH_ADMIN_ROLE} WITH PASSWORD ${client.escapeLiteral(owner.password)}`)
  await client.query(`ALTER ROLE ${AUTH_ADMIN_ROLE} SET search_path = auth`)
  await client.query(`CREATE SCHEMA IF NOT EXISTS auth; GRANT USAGE, CREATE ON SCHEMA auth TO ${AUTH_ADMIN_ROLE}`)
  // As in bootstrapClusterRoles: `postgres` may drop its triggers on auth.users (that needs the owner).
  await client.query(`GRANT ${AUTH_ADMIN_ROLE} TO ${USER_ROLE}`)
  try {
    // The tables are created by their owner, so the grants below are the owner's to give.
    await inLoginTransaction(client, owner, async (session) => {
      await session.query(TABLES)
      await session.query(`GRANT ALL ON ALL TABLES IN SCHEMA auth TO ${USER_ROLE}; GRANT ALL ON ALL SEQUENCES IN SCHEMA auth TO ${USER_ROLE}`)
      const columns = await session.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'auth' AND table_name = 'users' ORDER BY ordinal_position`,
      )
      const readable = columns.rows.map((row) => row.column_name).filter((name) => !SECRET_USER_COLUMNS.has(name))
      await session.query(`GRANT SELECT (${readable.map((name) => session.escapeIdentifier(name)).join(', ')}) ON auth.users TO ${READONLY_ROLE}`)
      // Passkeys' public keys and counters are no secret; the open ceremonies' challenges stay the service's own.
      await session.query(
        `GRANT SELECT ON auth.identities, auth.sessions, auth.audit_log_entries, auth.mfa_challenges, auth.mfa_amr_claims, auth.webauthn_credentials TO ${READONLY_ROLE}`,
      )
      // A factor's secret opens the second factor: the read-only role sees the factors without it.
      await session.query(
        `GRANT SELECT (id, user_id, friendly_name, factor_type, status, created_at, updated_at, phone, last_challenged_at, web_authn_aaguid) ON auth.mfa_factors TO ${READONLY_ROLE}`,
      )
      await session.query('INSERT INTO auth.schema_migrations (version) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [SCHEMA_VERSIONS])
    })
  } finally {
    // The service runs no DDL afterwards; and `postgres`, a member of the owner role, must not gain a way to create
    // objects in the auth schema through it.
    await client.query(`REVOKE CREATE ON SCHEMA auth FROM ${AUTH_ADMIN_ROLE}`)
  }
}
