import { splitSqlStatements } from '@stratum/sql/parser'
import { describe, expect, it } from 'vitest'
import { buildSchemaUsage, buildTableGrant } from '../src/features/database-admin/sql/grants'
import { buildCreateIndex, buildDropIndex, type IndexSpec } from '../src/features/database-admin/sql/indexes'
import { AdminInputError } from '../src/features/database-admin/sql/names'
import { buildSetPublicationEvents, buildSetPublicationTable } from '../src/features/database-admin/sql/publications'
import { canHashInBrowser, scramVerifier } from '../src/features/database-admin/sql/scram'
import { buildAlterRole, buildCreateRole, buildDropRole, ROLE_ATTRIBUTE_DEFAULTS, type RoleSpec } from '../src/features/database-admin/sql/roles'

/** The statements Postgres's own grammar finds in the SQL (fails the test on a syntax error). */
async function statements(sql: string): Promise<string[]> {
  const split = await splitSqlStatements(sql, { postgresVersion: 17 })
  expect(split.error, sql).toBeUndefined()
  return split.statements.map((statement) => statement.text)
}

const HOSTILE = `x"; DROP TABLE users; --`
const orders = { schema: 'public', name: 'orders' }
const index = (change: Partial<IndexSpec>): IndexSpec => ({
  table: orders,
  name: '',
  method: 'btree',
  columns: ['customer_id'],
  unique: false,
  where: '',
  ...change,
})
const role = (change: Partial<RoleSpec>): RoleSpec => ({ ...ROLE_ATTRIBUTE_DEFAULTS, name: 'reporting', password: '', ...change })

describe('index SQL', () => {
  it('creates an index with its method, columns in order, unique and a partial WHERE', async () => {
    const sql = buildCreateIndex(index({ name: 'orders_open', columns: ['customer_id', 'created_at'], unique: true, where: 'deleted_at IS NULL' }))
    expect(sql).toBe('CREATE UNIQUE INDEX "orders_open" ON "public"."orders" USING btree ("customer_id", "created_at")\n  WHERE (deleted_at IS NULL);')
    expect(await statements(sql)).toHaveLength(1)
    expect(buildCreateIndex(index({ method: 'gin', columns: ['tags'] }))).toBe('CREATE INDEX ON "public"."orders" USING gin ("tags");')
    expect(buildDropIndex({ schema: 'public', name: 'orders_open' })).toBe('DROP INDEX "public"."orders_open";')
  })

  it('keeps hostile names inside their quotes: one statement each', async () => {
    const sql = buildCreateIndex(index({ table: { schema: HOSTILE, name: HOSTILE }, name: HOSTILE, columns: [HOSTILE] }))
    expect(await statements(sql)).toHaveLength(1)
    expect(await statements(buildDropIndex({ schema: HOSTILE, name: HOSTILE }))).toHaveLength(1)
  })

  it('refuses what Postgres would refuse or misread', () => {
    expect(() => buildCreateIndex(index({ columns: [] }))).toThrow(AdminInputError)
    expect(() => buildCreateIndex(index({ columns: ['a', 'a'] }))).toThrow('twice')
    expect(() => buildCreateIndex(index({ method: 'hash', unique: true }))).toThrow('Only a btree index can be unique')
    expect(() => buildCreateIndex(index({ method: 'spgist; drop table x' as never }))).toThrow('Unknown index method')
    expect(() => buildCreateIndex(index({ where: 'true); DROP TABLE orders; --' }))).toThrow(AdminInputError)
    expect(() => buildCreateIndex(index({ where: 'a -- b' }))).toThrow(AdminInputError)
    expect(() => buildCreateIndex(index({ name: 'x'.repeat(64) }))).toThrow('longer than 63 bytes')
  })
})

describe('publication SQL', () => {
  it('sets the events it sends, in Postgres order, none at all included', async () => {
    expect(buildSetPublicationEvents('supabase_realtime', ['delete', 'insert'])).toBe(`ALTER PUBLICATION "supabase_realtime" SET (publish = 'insert, delete');`)
    expect(buildSetPublicationEvents('p', [])).toBe(`ALTER PUBLICATION "p" SET (publish = '');`)
    expect(buildSetPublicationEvents('p', ["insert'); drop table x; --" as never])).toBe(`ALTER PUBLICATION "p" SET (publish = '');`)
    expect(await statements(buildSetPublicationEvents(HOSTILE, ['truncate']))).toHaveLength(1)
  })

  it('adds and drops a table', async () => {
    expect(buildSetPublicationTable('supabase_realtime', orders, true)).toBe('ALTER PUBLICATION "supabase_realtime" ADD TABLE "public"."orders";')
    expect(buildSetPublicationTable('supabase_realtime', orders, false)).toBe('ALTER PUBLICATION "supabase_realtime" DROP TABLE "public"."orders";')
    expect(await statements(buildSetPublicationTable(HOSTILE, { schema: HOSTILE, name: HOSTILE }, true))).toHaveLength(1)
  })
})

describe('role SQL', () => {
  it('creates a role with the attributes a tenant may hold, never SUPERUSER or REPLICATION', async () => {
    const sql = buildCreateRole(role({ canLogin: true, canBypassRls: true, connectionLimit: 5, validUntil: '2030-01-01', password: "it's" }))
    expect(sql).toBe(
      `CREATE ROLE "reporting" WITH LOGIN INHERIT NOCREATEROLE NOCREATEDB BYPASSRLS CONNECTION LIMIT 5 VALID UNTIL '2030-01-01' PASSWORD 'it''s';`,
    )
    expect(await statements(sql)).toHaveLength(1)
    // Whatever extra fields a caller smuggles in, the builder writes only the attributes it knows.
    const smuggled = buildCreateRole({ ...role({}), superuser: true, replication: true } as RoleSpec)
    expect(smuggled).not.toMatch(/SUPERUSER|REPLICATION/)
  })

  it('alters a role: renamed first, the expiry cleared with infinity, the password kept when blank', async () => {
    const sql = buildAlterRole('reporting', role({ name: 'reports', canCreateDb: true }))
    expect(sql).toBe(
      `ALTER ROLE "reporting" RENAME TO "reports";\nALTER ROLE "reports" WITH NOLOGIN INHERIT NOCREATEROLE CREATEDB NOBYPASSRLS CONNECTION LIMIT -1 VALID UNTIL 'infinity';`,
    )
    expect(await statements(sql)).toHaveLength(2)
    expect(buildDropRole('reports')).toBe('DROP ROLE "reports";')
  })

  it('quotes hostile names, passwords and dates, and refuses reserved names and bad limits', async () => {
    const sql = buildCreateRole(role({ name: HOSTILE, password: `'; ALTER ROLE postgres SUPERUSER; --`, validUntil: `'; DROP ROLE x; --` }))
    expect(await statements(sql)).toHaveLength(1)
    expect(await statements(buildAlterRole(HOSTILE, role({ name: `${HOSTILE}2`, password: 'a\\b' })))).toHaveLength(2)
    expect(() => buildCreateRole(role({ name: 'pg_monitor2' }))).toThrow('reserved')
    expect(() => buildCreateRole(role({ name: 'PUBLIC' }))).toThrow(AdminInputError)
    expect(() => buildCreateRole(role({ name: '' }))).toThrow(AdminInputError)
    expect(() => buildCreateRole(role({ connectionLimit: -2 }))).toThrow('connection limit')
    expect(() => buildCreateRole(role({ connectionLimit: 1.5 }))).toThrow('connection limit')
  })
})

describe('grant SQL', () => {
  it('grants and revokes one table privilege and schema usage', async () => {
    expect(buildTableGrant('reporting', orders, 'SELECT', true)).toBe('GRANT SELECT ON TABLE "public"."orders" TO "reporting";')
    expect(buildTableGrant('reporting', orders, 'DELETE', false)).toBe('REVOKE DELETE ON TABLE "public"."orders" FROM "reporting";')
    expect(buildSchemaUsage('reporting', 'public', true)).toBe('GRANT USAGE ON SCHEMA "public" TO "reporting";')
    expect(buildSchemaUsage('reporting', 'public', false)).toBe('REVOKE USAGE ON SCHEMA "public" FROM "reporting";')
    expect(await statements(buildTableGrant(HOSTILE, { schema: HOSTILE, name: HOSTILE }, 'UPDATE', true))).toHaveLength(1)
    expect(await statements(buildSchemaUsage(HOSTILE, HOSTILE, false))).toHaveLength(1)
    expect(() => buildTableGrant('r', orders, 'TRUNCATE; DROP TABLE x' as never, true)).toThrow('Unknown table privilege')
  })
})

describe('SCRAM-SHA-256 verifier', () => {
  const bytes = (base64: string) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
  const hmac = async (key: Uint8Array, text: string) =>
    new Uint8Array(
      await crypto.subtle.sign(
        'HMAC',
        await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
        new TextEncoder().encode(text),
      ),
    )

  it("passes RFC 7677's exchange as Postgres checks it: the client's proof and the server's signature", async () => {
    // RFC 7677 section 3: user "user", password "pencil".
    const verifier = await scramVerifier('pencil', bytes('W22ZaJ0SNY7soEsUEjb6gQ=='), 4096)
    const [, iterations, salt, storedKey, serverKey] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(verifier)!
    expect([iterations, salt]).toEqual(['4096', 'W22ZaJ0SNY7soEsUEjb6gQ=='])
    const nonce = 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0'
    const authMessage = `n=user,r=rOprNGfwEbeRWgbNEkqO,r=${nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,c=biws,r=${nonce}`
    const serverSignature = btoa(String.fromCharCode(...(await hmac(bytes(serverKey!), authMessage))))
    expect(serverSignature).toBe('6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')
    const clientSignature = await hmac(bytes(storedKey!), authMessage)
    const clientKey = bytes('dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=').map((byte, i) => byte ^ clientSignature[i]!)
    const recomputed = new Uint8Array(await crypto.subtle.digest('SHA-256', clientKey as BufferSource))
    expect(btoa(String.fromCharCode(...recomputed))).toBe(storedKey)
  })

  it('hashes printable ASCII only: Postgres would SASLprep anything else first', async () => {
    expect(canHashInBrowser('reporting-password-1')).toBe(true)
    expect(canHashInBrowser('pässword')).toBe(false)
    expect(canHashInBrowser('tab\there')).toBe(false)
    const [first, second] = [await scramVerifier('same'), await scramVerifier('same')]
    expect(first).not.toBe(second)
  })
})
