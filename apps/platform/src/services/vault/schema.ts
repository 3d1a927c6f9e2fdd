import type pg from 'pg'
import { ADMIN_ROLE, READONLY_ROLE, USER_ROLE } from '../../control/bootstrap-roles.js'
import { inClientTransaction } from '../../store/db.js'
import { VAULT_CRYPTO_SQL } from './crypto-sql.js'

/**
 * The comment on the vault schema once this version of it is in place: a project started by an earlier version
 * (before Vault existed) gets the schema at its next start when the comment differs (vault-keys.ts).
 */
export const VAULT_SCHEMA_MARKER = 'Supabase Vault (stratum vault 1)'

/**
 * Supabase Vault's SQL interface (supabase/vault, sql/supabase_vault--0.3.0.sql): the vault.secrets table (the secret
 * column holds ciphertext), the vault.decrypted_secrets view adding decrypted_secret, vault.create_secret(new_secret,
 * new_name, new_description, new_key_id) returning the id and vault.update_secret(secret_id, new_secret, new_name,
 * new_description, new_key_id). key_id is kept and unused, as there. The encryption is ours (crypto-sql.ts): a key the
 * platform keeps outside the database, read from a file beside the data directory.
 *
 * Everything is owned by the platform's superuser, so a tenant can neither replace a function nor create objects here.
 * Privileges as on Supabase: `postgres` reads and deletes secrets and uses the two functions (with grant option, to
 * hand Vault to service_role if it wants); anon and authenticated get nothing; the SQL editor's read-only role sees
 * the table (ciphertext) but never a decrypted value (no privilege on the view, and the decryption refuses its session).
 * Idempotent: run into templates, new projects and, at their next start, projects made before Vault existed.
 */
const TABLE = `
  CREATE SCHEMA IF NOT EXISTS vault AUTHORIZATION ${ADMIN_ROLE};

  CREATE TABLE IF NOT EXISTS vault.secrets (
    id uuid PRIMARY KEY DEFAULT pg_catalog.gen_random_uuid(),
    name text,
    description text NOT NULL DEFAULT '',
    secret text NOT NULL,
    key_id uuid,
    nonce bytea,
    created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP
  );
  COMMENT ON TABLE vault.secrets IS 'Table with encrypted \`secret\` column for storing sensitive information on disk.';
  CREATE UNIQUE INDEX IF NOT EXISTS secrets_name_idx ON vault.secrets USING btree (name) WHERE name IS NOT NULL;
`

const API = `
  CREATE OR REPLACE VIEW vault.decrypted_secrets AS
  SELECT s.id, s.name, s.description, s.secret,
    vault._decrypt_secret(s.id, s.nonce, s.secret) AS decrypted_secret,
    s.key_id, s.nonce, s.created_at, s.updated_at
  FROM vault.secrets s;

  CREATE OR REPLACE FUNCTION vault.create_secret(new_secret text, new_name text = NULL, new_description text = '', new_key_id uuid = NULL)
  RETURNS uuid LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    secret_id uuid := pg_catalog.gen_random_uuid();
    sealed record;
  BEGIN
    -- Encrypted before the insert: the plaintext never reaches the table (nor its WAL) in any version of the row.
    SELECT * INTO sealed FROM vault._encrypt_secret(secret_id, new_secret);
    INSERT INTO vault.secrets (id, name, description, secret, key_id, nonce)
    VALUES (secret_id, new_name, coalesce(new_description, ''), sealed.secret, new_key_id, sealed.nonce);
    RETURN secret_id;
  END
  $fn$;

  CREATE OR REPLACE FUNCTION vault.update_secret(secret_id uuid, new_secret text = NULL, new_name text = NULL, new_description text = NULL, new_key_id uuid = NULL)
  RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    sealed record;
  BEGIN
    IF new_secret IS NOT NULL THEN
      -- A fresh IV with every new value (CBC needs an unpredictable one per encryption).
      SELECT * INTO sealed FROM vault._encrypt_secret(secret_id, new_secret);
      UPDATE vault.secrets s SET secret = sealed.secret, nonce = sealed.nonce WHERE s.id = secret_id;
    END IF;
    UPDATE vault.secrets s
    SET name = coalesce(new_name, s.name),
        description = coalesce(new_description, s.description),
        key_id = coalesce(new_key_id, s.key_id),
        updated_at = pg_catalog.now()
    WHERE s.id = secret_id;
  END
  $fn$;
`

const PRIVILEGES = `
  REVOKE ALL ON SCHEMA vault FROM PUBLIC;
  -- What the superuser's default privileges gave (SELECT for the read-only role, functions to PUBLIC). Never revoked
  -- from postgres: what it granted on (WITH GRANT OPTION) would depend on it.
  REVOKE ALL ON ALL TABLES IN SCHEMA vault FROM PUBLIC, anon, authenticated, service_role, ${READONLY_ROLE};
  REVOKE ALL ON ALL FUNCTIONS IN SCHEMA vault FROM PUBLIC, anon, authenticated, service_role, ${READONLY_ROLE};

  GRANT USAGE ON SCHEMA vault TO ${USER_ROLE} WITH GRANT OPTION;
  GRANT SELECT, DELETE, TRUNCATE, REFERENCES ON vault.secrets TO ${USER_ROLE} WITH GRANT OPTION;
  GRANT SELECT, DELETE ON vault.decrypted_secrets TO ${USER_ROLE} WITH GRANT OPTION;
  GRANT EXECUTE ON FUNCTION vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid),
    vault._decrypt_secret(uuid, bytea, text) TO ${USER_ROLE} WITH GRANT OPTION;

  -- The read-only connection lists secrets (names, ciphertext), as the Vault page does for Read-only members.
  GRANT USAGE ON SCHEMA vault TO ${READONLY_ROLE};
  GRANT SELECT ON vault.secrets TO ${READONLY_ROLE};
`

/** Installs (or brings up to date) the vault schema; `client` is a session of the platform's superuser. */
export async function ensureVaultSchema(client: pg.Client): Promise<void> {
  const owner = await client.query<{ owner: string }>(`SELECT pg_catalog.pg_get_userbyid(nspowner) AS owner FROM pg_catalog.pg_namespace WHERE nspname = 'vault'`)
  // A schema a tenant made under that name before Vault existed: its owner could replace anything put there.
  if (owner.rows[0] && owner.rows[0].owner !== ADMIN_ROLE) throw new Error(`The vault schema belongs to ${owner.rows[0].owner}, not the platform: Vault cannot be installed`)
  await inClientTransaction(client, async () => {
    await client.query(TABLE)
    await client.query(VAULT_CRYPTO_SQL)
    await client.query(API)
    await client.query(PRIVILEGES)
    await client.query(`COMMENT ON SCHEMA vault IS ${client.escapeLiteral(VAULT_SCHEMA_MARKER)}`)
  })
}

/** True when the instance has this version of the vault schema (a cheap check before ensureVaultSchema). */
export async function hasCurrentVaultSchema(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ marker: string | null }>(
    `SELECT pg_catalog.obj_description(oid, 'pg_namespace') AS marker FROM pg_catalog.pg_namespace WHERE nspname = 'vault'`,
  )
  return rows[0]?.marker === VAULT_SCHEMA_MARKER
}
