import { X509Certificate } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withAdminClient } from '../../src/control/bootstrap-roles.js'
import { createUser } from '../../src/auth/users.js'
import { ADMIN_EMAIL, api, login, memberWithRole, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ownerToken: string
let orgSlug: string
let ref: string
let port: number

const FIRST_PASSWORD = 'first-password-1'

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Access', organization_slug: orgSlug, db_pass: FIRST_PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
})
afterAll(() => t?.cleanup())

/** Connects as the user's `postgres` role the way any client would; resolves to the error code on refusal. */
async function loginAsPostgres(password: string, ssl?: pg.ClientConfig['ssl'], host = 'localhost'): Promise<'ok' | string> {
  const client = new pg.Client({ host, port, user: 'postgres', password, database: 'postgres', ssl, connectionTimeoutMillis: 20_000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('SELECT 1')
    return 'ok'
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message
  } finally {
    await client.end().catch(() => {})
  }
}

async function projectRow() {
  return (await t.platform.ctx.db.query('SELECT * FROM projects WHERE ref = $1', [ref])).rows[0]
}

describe('database password reset', () => {
  it('lets the owner set a new password: it logs in as postgres, the old one is refused', async () => {
    expect(await loginAsPostgres(FIRST_PASSWORD)).toBe('ok')
    const reset = await api(t, 'PATCH', `/platform/projects/${ref}/db-password`, { cookie }, { password: 'second-password-2' })
    expect(reset.status).toBe(200)
    expect(reset.headers.get('content-type')).toContain('application/json')
    expect(reset.body).toEqual({ message: 'Database password updated' })
    expect(await loginAsPostgres('second-password-2')).toBe('ok')
    expect(await loginAsPostgres(FIRST_PASSWORD)).toBe('28P01') // invalid_password
  })

  it('answers the Management API path for a token, and an administrator may reset too', async () => {
    const v1 = await api(t, 'PATCH', `/v1/projects/${ref}/database/password`, { token: ownerToken, origin: null }, { password: 'third-password-3' })
    expect(v1.status).toBe(200)
    expect(v1.body).toEqual({ message: 'Database password updated' })
    expect(await loginAsPostgres('third-password-3')).toBe('ok')

    const admin = await memberWithRole(t, orgSlug, 'administrator')
    const byAdmin = await api(t, 'PATCH', `/v1/projects/${ref}/database/password`, { token: admin.token, origin: null }, { password: 'fourth-password-4' })
    expect(byAdmin.status).toBe(200)
    expect(await loginAsPostgres('fourth-password-4')).toBe('ok')
    expect(await loginAsPostgres('third-password-3')).toBe('28P01')
  })

  it('stores a SCRAM verifier the platform computed: the password itself never reaches the server', async () => {
    const project = await projectRow()
    const rows = await withAdminClient(t.platform.ctx.projects.adminConnection(project), async (client) =>
      (await client.query(`SELECT rolpassword FROM pg_authid WHERE rolname = 'postgres'`)).rows,
    )
    expect(rows[0].rolpassword).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
    // Nothing of the password was kept by the platform either.
    expect(project.db_password_sealed).toBeNull()
  })

  it('takes a password beyond ASCII', async () => {
    const reset = await api(t, 'PATCH', `/platform/projects/${ref}/db-password`, { cookie }, { password: 'pässwörd-ünïcødé-5' })
    expect(reset.status).toBe(200)
    expect(await loginAsPostgres('pässwörd-ünïcødé-5')).toBe('ok')
  })

  it('leaves the platform\'s own access alone', async () => {
    const health = await api(t, 'GET', `/platform/projects/${ref}/database/health`, { cookie })
    expect(health.body).toEqual({ healthy: true })
    const query = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: 'select 1 as one' })
    expect(query.status).toBeLessThan(300)
  })

  it('refuses Developers and Read-only members with 403, and changes nothing', async () => {
    for (const role of ['developer', 'read_only'] as const) {
      const member = await memberWithRole(t, orgSlug, role)
      for (const [method, url] of [
        ['PATCH', `/v1/projects/${ref}/database/password`],
        ['PATCH', `/platform/projects/${ref}/db-password`],
      ] as const) {
        const denied = await api(t, method, url, { token: member.token, origin: null }, { password: `${role}-takes-over-1` })
        expect(denied.status, `${role} ${url}`).toBe(403)
        expect(denied.body.message).toBe('You need additional permissions to update this project')
      }
      // Even with a body that would not validate, the answer is the permission's.
      expect((await api(t, 'PATCH', `/platform/projects/${ref}/db-password`, { token: member.token, origin: null }, {})).status).toBe(403)
      expect(await loginAsPostgres(`${role}-takes-over-1`)).toBe('28P01')
    }
    expect(await loginAsPostgres('pässwörd-ünïcødé-5')).toBe('ok')
  })

  it('answers bad input with a 4xx and a message', async () => {
    const patch = (body: unknown, url = `/platform/projects/${ref}/db-password`) => api(t, 'PATCH', url, { cookie }, body)
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /^Database password is required$/],
      [{ password: 'short' }, 400, /at least 8 characters/],
      [{ password: 'x'.repeat(129) }, 400, /at most 128 characters/],
      [{ password: 12345678 }, 400, /Database password/],
      [{ password: 'null-\u0000-byte-password' }, 400, /NUL|null|invalid/i],
      ['{"password": ', 400, /./],
    ]
    for (const [body, status, message] of cases) {
      const result = await patch(body)
      expect(result.status, JSON.stringify(body)).toBe(status)
      expect(result.body.message).toMatch(message)
    }
    const badRef = await patch({ password: 'long-enough-1' }, '/platform/projects/NOT-A-REF/db-password')
    expect(badRef.status).toBe(400)
    expect(badRef.body.message).toMatch(/ref/i)
    const unknown = await patch({ password: 'long-enough-1' }, `/platform/projects/${'z'.repeat(20)}/db-password`)
    expect(unknown.status).toBe(404)
    expect(await loginAsPostgres('pässwörd-ünïcødé-5')).toBe('ok')
  })

  it('is refused without a session or token', async () => {
    const anonymous = await api(t, 'PATCH', `/v1/projects/${ref}/database/password`, { origin: null }, { password: 'anonymous-password-1' })
    expect(anonymous.status).toBe(401)
  })
})

describe('TLS', () => {
  let caPem: string

  it('lets every member download the installation CA certificate, and nobody else', async () => {
    const readOnly = await memberWithRole(t, orgSlug, 'read_only')
    const download = await api(t, 'GET', `/platform/projects/${ref}/settings/ssl-ca`, { token: readOnly.token })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="stratum-ca.crt"')
    caPem = download.body as string
    const ca = new X509Certificate(caPem)
    expect(ca.ca).toBe(true)
    expect(caPem).toBe(fs.readFileSync(path.join(t.dataDir, 'tls', 'ca.crt'), 'utf8'))
    expect(fs.statSync(path.join(t.dataDir, 'tls', 'ca.key')).mode & 0o777).toBe(0o600)

    const outsider = await createUser(t.platform.ctx.db, 'outsider@example.com', 'outsider-password-1')
    expect(outsider.id).toBeTruthy()
    const outsiderToken = await tokenFor(t, 'outsider@example.com')
    expect((await api(t, 'GET', `/platform/projects/${ref}/settings/ssl-ca`, { token: outsiderToken })).status).toBe(404)
    expect((await api(t, 'GET', `/platform/projects/${ref}/settings/ssl-ca`, {})).status).toBe(401)
  })

  /** End to end, what `psql "sslmode=verify-full sslrootcert=stratum-ca.crt host=localhost ..."` does. */
  it('accepts TLS with the downloaded CA and the host name verified (verify-full)', async () => {
    const dataDir = path.join(t.dataDir, 'projects', ref, 'data')
    expect(fs.readFileSync(path.join(dataDir, 'stratum.conf'), 'utf8')).toMatch(/^ssl = 'on'$/m)
    // Postgres refuses a key others can read; as root the instance runs as its own OS user.
    const key = fs.statSync(path.join(dataDir, 'server.key'))
    expect(key.mode & 0o777).toBe(0o600)
    expect(key.uid).toBe(fs.statSync(dataDir).uid)
    const password = 'pässwörd-ünïcødé-5'
    expect(await loginAsPostgres(password, { ca: caPem, rejectUnauthorized: true, servername: 'localhost' })).toBe('ok')
    const client = new pg.Client({ host: 'localhost', port, user: 'postgres', password, database: 'postgres', ssl: { ca: caPem, rejectUnauthorized: true, servername: 'localhost' } })
    client.on('error', () => {})
    await client.connect()
    try {
      const { rows } = await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')
      expect(rows[0].ssl).toBe(true)
    } finally {
      await client.end()
    }
    // A client that does not trust the CA is refused (what verify-full without sslrootcert meets).
    expect(await loginAsPostgres(password, { rejectUnauthorized: true, servername: 'localhost' })).toMatch(/UNABLE_TO_VERIFY|SELF_SIGNED|unable to (verify|get)/i)
    // The loopback addresses are in the certificate too (node-postgres checks an IP host against them)...
    expect(await loginAsPostgres(password, { ca: caPem, rejectUnauthorized: true }, '127.0.0.1')).toBe('ok')
    // ...and a host name the certificate does not carry is refused (node-postgres replaces servername
    // with a host name, so the other name goes with an IP host).
    expect(await loginAsPostgres(password, { ca: caPem, rejectUnauthorized: true, servername: 'elsewhere.example.test' }, '127.0.0.1')).toMatch(/ALTNAME|altnames|Hostname/i)
  })
})
