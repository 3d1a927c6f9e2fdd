import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import pg from 'pg'
import pino from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { withAdminClient } from '../../../src/control/bootstrap-roles.js'
import { takeLogicalBackup } from '../../../src/control/logical-backups.js'
import { restoreFromGzipFile } from '../../../src/control/logical/index.js'
import { findProject } from '../../../src/control/project-store.js'
import { VaultKeys } from '../../../src/services/vault/vault-keys.js'
import { api, type Caller } from '../harness.js'
import type { IntegrationProject } from './context.js'

/**
 * Vault (issue 29 item 2): Supabase's SQL interface through the platform's SQL route, ciphertext at rest under a key
 * the platform keeps outside the database, and the ways a tenant might try to learn that key.
 */
export function vaultCases(project: IntegrationProject): void {
  const query = (sql: string, caller: Caller = project.owner, readOnly = false) =>
    api(project.t, 'POST', `/platform/pg-meta/${project.ref}/query`, caller, { query: sql, read_only: readOnly })
  /** The last statement's rows; any refusal fails the test with the server's message. */
  const rows = async <T = Record<string, unknown>>(sql: string, caller: Caller = project.owner, readOnly = false): Promise<T[]> => {
    const result = await query(sql, caller, readOnly)
    if (result.status !== 201) throw new Error(`${sql}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body.results.at(-1).rows as T[]
  }
  const first = async <T = Record<string, unknown>>(sql: string): Promise<T> => (await rows<T>(sql))[0]!
  /** The message a refused statement gets (a failure of the test when it runs). */
  const refusal = async (sql: string, caller: Caller = project.owner, readOnly = false): Promise<string> => {
    const result = await query(sql, caller, readOnly)
    expect(result.status, `${sql} was not refused`).toBeGreaterThanOrEqual(400)
    return result.body.message as string
  }
  const instanceDir = () => path.join(project.t.dataDir, 'projects', project.ref)
  /** The project's key as the platform holds it, and the file the instance reads. */
  const projectKey = async () => {
    const { rows: stored } = await project.t.platform.ctx.db.query<{ key_sealed: string }>('SELECT key_sealed FROM project_vault_keys WHERE project_ref = $1', [project.ref])
    expect(stored).toHaveLength(1)
    const key = project.t.platform.ctx.secrets.open(stored[0]!.key_sealed)
    return { base64: key, hex: Buffer.from(key, 'base64').toString('hex') }
  }
  const expectNoKey = (text: string, key: { base64: string; hex: string }) => {
    expect(text).not.toContain(key.base64)
    expect(text.toLowerCase()).not.toContain(key.hex)
  }

  describe('vault', () => {
    it('creates, updates and reads secrets with Supabase functions; the table holds ciphertext only', async () => {
      const { id } = await first<{ id: string }>(`select vault.create_secret('s3kr3t-value-one', 'stripe_key', 'Stripe test key') as id`)
      const read = await rows(`select name, description, decrypted_secret from vault.decrypted_secrets where id = '${id}'`)
      expect(read).toEqual([{ name: 'stripe_key', description: 'Stripe test key', decrypted_secret: 's3kr3t-value-one' }])
      const [raw] = await rows<{ secret: string; nonce: string; key_id: null }>(`select secret, encode(nonce, 'hex') as nonce, key_id from vault.secrets where id = '${id}'`)
      expect(raw!.secret).not.toContain('s3kr3t')
      expect(Buffer.from(raw!.secret, 'base64').length).toBeGreaterThanOrEqual(16 + 32)
      expect(raw!.nonce).toMatch(/^[0-9a-f]{32}$/)

      await rows(`select vault.update_secret('${id}', 's3kr3t-value-two', 'stripe_live', 'Stripe live key')`)
      const updated = await rows(`select name, description, decrypted_secret, updated_at > created_at as touched from vault.decrypted_secrets where id = '${id}'`)
      expect(updated).toEqual([{ name: 'stripe_live', description: 'Stripe live key', decrypted_secret: 's3kr3t-value-two', touched: true }])
      const [after] = await rows<{ secret: string }>(`select secret from vault.secrets where id = '${id}'`)
      expect(after!.secret).not.toBe(raw!.secret)
      // Named arguments and defaults as in supabase/vault; the name is unique; an empty secret is a secret.
      await rows(`select vault.create_secret(new_secret := '', new_name := 'empty_one')`)
      expect(await rows(`select decrypted_secret from vault.decrypted_secrets where name = 'empty_one'`)).toEqual([{ decrypted_secret: '' }])
      expect(await refusal(`select vault.create_secret('x', 'stripe_live')`)).toMatch(/duplicate key/)
      await rows(`delete from vault.secrets where name = 'empty_one'`)
    })

    it('refuses a ciphertext moved to another row, and one altered', async () => {
      onTestFinished(async () => void (await rows(`delete from vault.secrets where name in ('row_a', 'row_b')`)))
      const { a } = await first<{ a: string }>(`select vault.create_secret('moved-value', 'row_a') as a`)
      const { b } = await first<{ b: string }>(`select vault.create_secret('other-value', 'row_b') as b`)
      const row = (await findProject(project.t.platform.ctx.db, project.ref))!
      const asSuperuser = (sql: string) => withAdminClient(project.t.platform.ctx.projects.adminConnection(row), (client) => client.query(sql))
      // Only the platform's superuser can write the table: it stands for a restore or a copy that mixed rows up.
      await asSuperuser(`update vault.secrets t set secret = s.secret, nonce = s.nonce from vault.secrets s where t.id = '${b}' and s.id = '${a}'`)
      expect(await refusal(`select decrypted_secret from vault.decrypted_secrets where id = '${b}'`)).toMatch(/failed its integrity check/)
      // One bit of the ciphertext flipped.
      await asSuperuser(`update vault.secrets set secret = encode(set_byte(decode(secret, 'base64'), 0, get_byte(decode(secret, 'base64'), 0) # 1), 'base64') where id = '${a}'`)
      expect(await refusal(`select decrypted_secret from vault.decrypted_secrets where id = '${a}'`)).toMatch(/failed its integrity check/)
    })

    it('gives anon, authenticated and the read-only connection no decrypted value', async () => {
      await rows(`select vault.create_secret('readonly-must-not-see', 'ro_probe')`)
      for (const role of ['anon', 'authenticated']) {
        expect(await refusal(`set role ${role}; select * from vault.secrets`)).toMatch(/permission denied/)
        expect(await refusal(`set role ${role}; select vault.create_secret('x')`)).toMatch(/permission denied/)
      }
      // The read-only connection lists names and ciphertext (the Vault page for Read-only members), never a value.
      expect(await rows(`select name from vault.secrets where name = 'ro_probe'`, project.readOnly, true)).toEqual([{ name: 'ro_probe' }])
      expect(await refusal(`select decrypted_secret from vault.decrypted_secrets`, project.readOnly, true)).toMatch(/permission denied/)
      expect(await refusal(`select vault._decrypt_secret(id, nonce, secret) from vault.secrets`, project.readOnly, true)).toMatch(/permission denied/)
      expect(await refusal(`select vault.create_secret('x')`, project.readOnly, false)).toMatch(/permission/)
      // Even when postgres grants it everything, the read-only session is refused by the decryption itself.
      await rows(`grant select on vault.decrypted_secrets to stratum_readonly; grant execute on function vault._decrypt_secret(uuid, bytea, text) to stratum_readonly`)
      expect(await refusal(`select decrypted_secret from vault.decrypted_secrets`, project.owner, true)).toMatch(/read-only connection cannot read Vault secrets/)
      await rows(`revoke select on vault.decrypted_secrets from stratum_readonly; revoke execute on function vault._decrypt_secret(uuid, bytea, text) from stratum_readonly`)
    })

    it('keeps the key out of reach of tenant SQL', async () => {
      const key = await projectKey()
      const keyFile = path.join(instanceDir(), 'vault.key')
      expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(key.base64)
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600)
      // Not in the data directory: a copy of it (branch clone, base backup, physical backup) does not carry it.
      expect(fs.existsSync(path.join(instanceDir(), 'data', 'vault.key'))).toBe(false)

      expect(await refusal(`select pg_read_file('${keyFile}')`)).toMatch(/permission denied/)
      expect(await refusal(`select pg_read_binary_file('${keyFile}')`)).toMatch(/permission denied/)
      expect(await refusal(`create temp table k (t text); copy k from '${keyFile}'`)).toMatch(/permission denied|must be superuser|pg_read_server_files/)
      expect(await refusal(`select vault._project_key()`)).toMatch(/permission denied/)
      expect(await refusal(`select vault._derived_key('encryption')`)).toMatch(/permission denied/)
      expect(await refusal(`select * from vault._encrypt_secret(gen_random_uuid(), 'x')`)).toMatch(/permission denied/)
      expect(await refusal(`select vault._hmac_sha256('a', 'b', 'sha256')`)).toMatch(/permission denied/)
      // Nothing in vault can be replaced, altered or added by the tenant.
      expect(await refusal(`create or replace function vault._project_key() returns bytea language sql as $$ select 'x'::bytea $$`)).toMatch(/must be owner|permission denied/)
      expect(await refusal(`create function vault.spy() returns int language sql as $$ select 1 $$`)).toMatch(/permission denied for schema vault/)
      expect(await refusal(`create table vault.spy (t text)`)).toMatch(/permission denied for schema vault/)
      expect(await refusal(`alter function vault._decrypt_secret(uuid, bytea, text) security invoker`)).toMatch(/must be owner/)
      expect(await refusal(`create trigger spy after insert on vault.secrets for each row execute function pg_catalog.suppress_redundant_updates_trigger()`)).toMatch(/permission denied|must be owner/)

      // Overloads a privileged function would pick with another search_path: every call is qualified and pinned.
      const dropSpies = `drop function if exists public.pg_read_file(text, bigint, bigint, boolean), public.decode(text, text),
        public.hmac(bytea, bytea, text), public.convert_to(text, text); drop table if exists public.vault_spy`
      onTestFinished(async () => void (await rows(dropSpies)))
      await rows(`
        create table public.vault_spy (args text);
        create function public.pg_read_file(text, bigint, bigint, boolean) returns text language sql as $$ insert into public.vault_spy values ($1) returning 'x' $$;
        create function public.decode(text, text) returns bytea language sql as $$ insert into public.vault_spy values ($1) returning null::bytea $$;
        create function public.hmac(bytea, bytea, text) returns bytea language sql as $$ insert into public.vault_spy values (encode($2, 'base64')) returning $1 $$;
        create function public.convert_to(text, text) returns bytea language sql as $$ insert into public.vault_spy values ($1) returning null::bytea $$;`)
      await rows(`set search_path = public, extensions, pg_catalog; select vault.create_secret('through-overloads', 'overload_probe')`)
      expect(await rows(`set search_path = public, extensions, pg_catalog; select decrypted_secret from vault.decrypted_secrets where name = 'overload_probe'`)).toEqual([
        { decrypted_secret: 'through-overloads' },
      ])
      expect(await rows(`select count(*)::int as n from public.vault_spy`)).toEqual([{ n: 0 }])

      // Nowhere a tenant can look: function sources, settings, sessions' query texts, plans, errors, the server's log.
      const sources = await rows<{ src: string }>(`select string_agg(coalesce(prosrc, '') || coalesce(probin, ''), ' ') as src from pg_proc`)
      expectNoKey(sources[0]!.src, key)
      const settings = await rows<{ all: string }>(`select string_agg(name || '=' || coalesce(setting, ''), ' ') as all from pg_settings`)
      expectNoKey(settings[0]!.all, key)
      const sessions = await rows<{ all: string }>(`select string_agg(coalesce(query, ''), ' ') as all from pg_stat_activity`)
      expectNoKey(sessions[0]!.all, key)
      const plan = await rows<{ 'QUERY PLAN': string }>(`explain (verbose, analyze) select * from vault.decrypted_secrets where name = 'overload_probe'`)
      expectNoKey(JSON.stringify(plan), key)
      const failure = await query(`select vault._decrypt_secret(gen_random_uuid(), '\\x00112233445566778899aabbccddeeff'::bytea, encode(decode(repeat('ab', 64), 'hex'), 'base64'))`)
      expect(failure.body.message).toMatch(/failed its integrity check/)
      expectNoKey(JSON.stringify(failure.body), key)
      const logDir = path.join(instanceDir(), 'data', 'log')
      for (const file of fs.readdirSync(logDir)) expectNoKey(fs.readFileSync(path.join(logDir, file), 'utf8'), key)
    })

    it('writes a logical backup with ciphertext only, and neither the plaintext nor the key', async () => {
      await rows(`select vault.create_secret('plaintext-never-in-backups', 'backup_probe')`)
      const key = await projectKey()
      const ctx = project.t.platform.ctx
      const row = (await findProject(ctx.db, project.ref))!
      const backup = await takeLogicalBackup({ db: ctx.db, projects: ctx.projects, dataDir: project.t.dataDir }, row)
      const dump = zlib.gunzipSync(fs.readFileSync(backup.file_path)).toString('utf8')
      const { secret } = await first<{ secret: string }>(`select secret from vault.secrets where name = 'backup_probe'`)
      // The row is there, as ciphertext (COPY text format writes base64's line breaks as \n).
      expect(dump).toContain('backup_probe')
      expect(dump).toContain(secret.split('\n')[0])
      expect(dump).not.toContain('plaintext-never-in-backups')
      expectNoKey(dump, key)
    })

    it("decrypts a restored logical backup's secrets with the project's key", async () => {
      await rows(`select vault.create_secret('survives-a-restore', 'restore_probe', 'restored')`)
      const ctx = project.t.platform.ctx
      const row = (await findProject(ctx.db, project.ref))!
      const backup = await takeLogicalBackup({ db: ctx.db, projects: ctx.projects, dataDir: project.t.dataDir }, row)
      // Restored as `gunzip | psql` would, into an empty database of the same instance: the key is the instance's, not the dump's.
      await withAdminClient(ctx.projects.adminConnection(row), (admin) => admin.query('CREATE DATABASE vault_restore TEMPLATE template0 OWNER postgres'))
      const tenant = new pg.Client({ host: '127.0.0.1', port: row.port, user: 'postgres', password: project.dbPassword, database: 'vault_restore' })
      tenant.on('error', () => {})
      try {
        await restoreFromGzipFile(ctx.projects.adminConnection(row, 'vault_restore'), backup.file_path)
        await tenant.connect()
        const { rows: restored } = await tenant.query(`SELECT name, description, decrypted_secret FROM vault.decrypted_secrets WHERE name = 'restore_probe'`)
        expect(restored).toEqual([{ name: 'restore_probe', description: 'restored', decrypted_secret: 'survives-a-restore' }])
        // The ciphertext is the original's, byte for byte (not encrypted again on the way in).
        const { secret } = await first<{ secret: string }>(`select secret from vault.secrets where name = 'restore_probe'`)
        expect((await tenant.query(`SELECT secret FROM vault.secrets WHERE name = 'restore_probe'`)).rows).toEqual([{ secret }])
      } finally {
        await tenant.end().catch(() => {})
        await withAdminClient(ctx.projects.adminConnection(row), (admin) => admin.query('DROP DATABASE vault_restore WITH (FORCE)'))
      }
    })

    it('gives a project made before Vault its schema at its next start, under the key it already has', async () => {
      const ctx = project.t.platform.ctx
      const row = (await findProject(ctx.db, project.ref))!
      const key = await projectKey()
      await withAdminClient(ctx.projects.adminConnection(row), (client) => client.query('DROP SCHEMA vault CASCADE'))
      expect(await refusal(`select vault.create_secret('x')`)).toMatch(/schema "vault" does not exist/)
      // What the instance provider calls around each start (services/vault/vault-keys.ts).
      const keyring = new VaultKeys(ctx.db, ctx.secrets, pino({ level: 'silent' }))
      expect(await keyring.vaultKey(project.ref)).toBe(key.base64)
      await keyring.started(project.ref, row.port)
      await rows(`select vault.create_secret('after-the-upgrade', 'late_probe')`)
      expect(await rows(`select decrypted_secret from vault.decrypted_secrets where name = 'late_probe'`)).toEqual([{ decrypted_secret: 'after-the-upgrade' }])
      expect(await rows(`select count(*)::int as n from vault.secrets`, project.readOnly, true)).toEqual([{ n: 1 }])
    })
  })
}
