import { READONLY_ROLE } from '../../control/bootstrap-roles.js'

/**
 * The file beside an instance's data directory (never inside it: a physical copy of the data directory, a branch's
 * clone or a base backup, does not carry it) that holds the project's Vault key, base64 of 32 random bytes. The
 * platform keeps the key sealed in its own database (vault-keys.ts) and writes this file, 0600 and owned by the
 * instance's OS user, before each start of the instance.
 */
export const VAULT_KEY_FILE = 'vault.key'

/**
 * Vault's encryption, in SQL, under the project's key K:
 *
 * - Two keys derived from K with HMAC-SHA256 and distinct labels: one to encrypt, one to authenticate (a key is
 *   never used for two purposes).
 * - AES-256-CBC with a random 16-byte IV (the row's `nonce`) and PKCS#7 padding, then HMAC-SHA256 over a version
 *   label, the row's id, the IV and the ciphertext (encrypt-then-MAC). `secret` is base64(ciphertext || tag).
 *   The tag is checked before anything is decrypted, so a modified ciphertext is refused and there is no padding
 *   oracle; binding the id as associated data makes a ciphertext copied into another row fail.
 *   Chosen over AES-GCM because pgcrypto, the one cipher library these builds ship, offers CBC but no AEAD mode;
 *   encrypt-then-MAC with independent keys is the standard generic composition that is authenticated encryption.
 *
 * Hardening: pgcrypto's C entry points are declared again here, in the vault schema and owned by the superuser,
 * instead of calling the pgcrypto extension's functions: a tenant may own (drop, re-create) the extension's schema
 * objects or add overloads in `extensions`/`public`, and never reaches these. Every function pins its search_path
 * to pg_catalog, pg_temp and names what it calls with its schema. The key is read with pg_read_file by a SECURITY
 * DEFINER function nobody may execute: it only runs inside the other SECURITY DEFINER functions, and no value of
 * it ever appears in SQL text, a setting, a log line or an error message (errors name the row, never the key).
 */
export const VAULT_CRYPTO_SQL = `
  CREATE OR REPLACE FUNCTION vault._hmac_sha256(data bytea, key bytea, type text) RETURNS bytea
    AS '$libdir/pgcrypto', 'pg_hmac' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
  CREATE OR REPLACE FUNCTION vault._aes_encrypt(data bytea, key bytea, iv bytea, type text) RETURNS bytea
    AS '$libdir/pgcrypto', 'pg_encrypt_iv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
  CREATE OR REPLACE FUNCTION vault._aes_decrypt(data bytea, key bytea, iv bytea, type text) RETURNS bytea
    AS '$libdir/pgcrypto', 'pg_decrypt_iv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
  CREATE OR REPLACE FUNCTION vault._random_bytes(count integer) RETURNS bytea
    AS '$libdir/pgcrypto', 'pg_random_bytes' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

  -- The project's key, from the file beside the data directory (the instance's own directory, 0700).
  CREATE OR REPLACE FUNCTION vault._project_key() RETURNS bytea
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    key_file text := pg_catalog.regexp_replace(pg_catalog.current_setting('data_directory'), '/+[^/]+/*$', '') || '/${VAULT_KEY_FILE}';
    content text := pg_catalog.pg_read_file(key_file, 0, 1024, true);
    project_key bytea;
  BEGIN
    IF content IS NULL THEN
      RAISE EXCEPTION 'The Vault key of this project is not available' USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    project_key := pg_catalog.decode(pg_catalog.btrim(content, E' \\n\\r'), 'base64');
    IF pg_catalog.length(project_key) <> 32 THEN
      RAISE EXCEPTION 'The Vault key of this project is not a 32-byte key' USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN project_key;
  END
  $fn$;

  CREATE OR REPLACE FUNCTION vault._derived_key(purpose text) RETURNS bytea
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT vault._hmac_sha256(pg_catalog.convert_to('stratum vault v1 ' || purpose, 'UTF8'), vault._project_key(), 'sha256')
  $fn$;

  CREATE OR REPLACE FUNCTION vault._secret_tag(secret_id uuid, iv bytea, ciphertext bytea) RETURNS bytea
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT vault._hmac_sha256(pg_catalog.convert_to('stratum vault v1', 'UTF8') || pg_catalog.uuid_send(secret_id) || iv || ciphertext,
      vault._derived_key('authentication'), 'sha256')
  $fn$;

  CREATE OR REPLACE FUNCTION vault._encrypt_secret(secret_id uuid, plaintext text, OUT secret text, OUT nonce bytea)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    ciphertext bytea;
  BEGIN
    IF plaintext IS NULL THEN
      RAISE EXCEPTION 'A Vault secret cannot be null' USING ERRCODE = 'not_null_violation';
    END IF;
    nonce := vault._random_bytes(16);
    ciphertext := vault._aes_encrypt(pg_catalog.convert_to(plaintext, 'UTF8'), vault._derived_key('encryption'), nonce, 'aes-cbc/pad:pkcs');
    secret := pg_catalog.encode(ciphertext || vault._secret_tag(secret_id, nonce, ciphertext), 'base64');
  END
  $fn$;

  CREATE OR REPLACE FUNCTION vault._decrypt_secret(secret_id uuid, nonce bytea, secret text) RETURNS text
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    raw bytea;
    ciphertext bytea;
  BEGIN
    -- The SQL editor's read-only connection never reads a decrypted value, whatever it was granted.
    IF session_user = '${READONLY_ROLE}' THEN
      RAISE EXCEPTION 'permission denied: the read-only connection cannot read Vault secrets' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF secret IS NULL OR nonce IS NULL THEN
      RETURN NULL;
    END IF;
    raw := pg_catalog.decode(secret, 'base64');
    IF pg_catalog.length(raw) < 48 OR pg_catalog.length(nonce) <> 16 THEN
      RAISE EXCEPTION 'Vault secret % is not a ciphertext of this vault', secret_id USING ERRCODE = 'data_corrupted';
    END IF;
    ciphertext := pg_catalog.substring(raw, 1, pg_catalog.length(raw) - 32);
    IF vault._secret_tag(secret_id, nonce, ciphertext) <> pg_catalog.substring(raw, pg_catalog.length(raw) - 31) THEN
      RAISE EXCEPTION 'Vault secret % failed its integrity check (another key, another row, or altered)', secret_id USING ERRCODE = 'data_corrupted';
    END IF;
    RETURN pg_catalog.convert_from(vault._aes_decrypt(ciphertext, vault._derived_key('encryption'), nonce, 'aes-cbc/pad:pkcs'), 'UTF8');
  END
  $fn$;
`
