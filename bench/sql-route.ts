/**
 * `npm run bench`, the SQL editor's query route (issue 3): POST /platform/pg-meta/{ref}/query
 * against a direct pg client in this same process, on the same project instance.
 *
 * Three ways to get the same rows, all in this one process, measured in turns so that machine
 * noise hits them alike:
 * - direct: `client.query(sql)` on a pg.Client (the floor: one round trip, pg's type parsing);
 * - plain route: a minimal Fastify + pg route answering `{ rows }` as JSON (what the issue calls
 *   the naive way), requested and parsed with undici's `request()` + `body.json()`;
 * - Stratum: the platform itself (startPlatform, bundled as `npm start` bundles it, here in this process):
 *   token check, permission, statement splitting, read-only connection, result cap; requested
 *   the same way.
 * Goals (p50 ratios): issue 3's against direct, <= 2.5 for `select 1` and <= 1.3 for 10k rows x 2 columns; issue 32's
 * against the plain route, <= 1.3 for `select 1` and <= 1.0 for 10k rows (and <= 2 against direct there). The load
 * average is printed before and after: on a busy machine every extra process hop costs more, so read the ratios.
 *
 * BENCH_SQL_CPU_PROF=<dir>: after the measured runs, each case runs again through the Stratum route alone under a
 * V8 CPU profile (this process holds the platform, the client and the floors alike), written to
 * <dir>/sql-route-<case>.cpuprofile: where the route's time goes (issue 32).
 */
import Fastify from 'fastify'
import pg from 'pg'
import { request } from 'undici'
import fs from 'node:fs'
import inspector from 'node:inspector/promises'
import os from 'node:os'
import path from 'node:path'
import { hashToken, newAccessToken, tokenAlias } from '../apps/platform/src/auth/secrets.js'
import { loadConfig } from '../apps/platform/src/config.js'
import { registerSecurityHeaders } from '../apps/platform/src/http/security-headers.js'
import { recordFigures, ratioOf, type Figure } from './figures.js'
import { bundledStartPlatform } from './platform-bundle.js'

const PORT_BLOCK = 29_500
const EMAIL = 'bench-sql@example.com'
const DB_PASSWORD = 'bench-db-password'

const CASES = [
  { name: 'select 1', sql: 'select 1', iterations: 400, goal: 2.5, plainGoal: 1.3 },
  { name: '10k rows x 2 columns', sql: "select g as id, 'row ' || g as label from generate_series(1, 10000) g", iterations: 60, goal: 1.3, plainGoal: 1.0 },
] as const

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

/**
 * The bare route, or with `obligations` the bare route doing what every Stratum run must do besides: the platform's
 * security headers on the answer (security-headers.ts, the same hook) and the session given back clean (`DISCARD ALL`
 * after the answer, as runner.ts does). The route against that second floor is what its own code and Fastify hooks cost.
 */
async function plainRoute(connection: pg.ClientConfig, obligations?: Parameters<typeof registerSecurityHeaders>[1]) {
  const pool = new pg.Pool({ ...connection, max: 3 })
  const app = Fastify()
  if (obligations) await registerSecurityHeaders(app, obligations)
  app.post('/query', async (request) => {
    const { query } = request.body as { query: string }
    if (!obligations) return { rows: (await pool.query(query)).rows }
    const client = await pool.connect()
    try {
      return { rows: (await client.query(query)).rows }
    } finally {
      setImmediate(() => void client.query('DISCARD ALL').then(() => client.release(), (error: Error) => client.release(error)))
    }
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    url: `${address}/query`,
    async close() {
      await app.close()
      await pool.end()
    },
  }
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-sql-'))
  fs.chmodSync(dataDir, 0o755)
  const startPlatform = await bundledStartPlatform()
  const platform = await startPlatform(
    loadConfig({
      ...process.env, PORT: '0', STRATUM_DATA_DIR: dataDir, STRATUM_ADMIN_EMAIL: EMAIL, STRATUM_ADMIN_PASSWORD: 'bench-password-1', LOG_LEVEL: 'warn',
      STRATUM_PLATFORM_DB_PORT: String(PORT_BLOCK), STRATUM_PROJECT_PORT_START: String(PORT_BLOCK + 1),
    }),
  )
  try {
    // A personal access token, as `stratum token create` makes one.
    const token = newAccessToken()
    const { rows: [user] } = await platform.ctx.db.query('SELECT id FROM users WHERE email = $1', [EMAIL])
    await platform.ctx.db.query('INSERT INTO access_tokens (user_id, name, token_hash, token_alias) VALUES ($1, $2, $3, $4)', [user.id, 'bench', hashToken(token), tokenAlias(token)])
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => (await request(platform.url + url, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) })).body.json() as Promise<any>
    const [org] = await call('GET', '/platform/organizations')
    const project = await call('POST', '/platform/projects', { name: 'bench-sql', organization_slug: org.slug, db_pass: DB_PASSWORD })
    while ((await call('GET', `/platform/projects/${project.ref}/status`)).status !== 'ACTIVE_HEALTHY') await new Promise((resolve) => setTimeout(resolve, 50))
    const details = await call('GET', `/platform/projects/${project.ref}`)
    const connection: pg.ClientConfig = { host: '127.0.0.1', port: details.db_port, user: 'postgres', password: DB_PASSWORD, database: 'postgres' }
    if (!connection.port) throw new Error(`no database port in the project details: ${JSON.stringify(details)}`)

    const direct = new pg.Client(connection)
    await direct.connect()
    const plain = await plainRoute(connection)
    const obliged = await plainRoute(connection, platform.ctx.config)
    const stratumUrl = `${platform.url}/platform/pg-meta/${project.ref}/query`
    // undici's request(): the HTTP client with the least overhead of its own in Node (fetch() adds
    // WHATWG streams around the same connection pool), so that the figures are about the routes.
    const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      if (response.statusCode >= 300) throw new Error(`${url} answered ${response.statusCode}: ${await response.body.text()}`)
      return response.body.json()
    }
    const ways = {
      direct: (sql: string) => direct.query(sql),
      plain: (sql: string) => post(plain.url, { query: sql }),
      obliged: (sql: string) => post(obliged.url, { query: sql }),
      stratum: (sql: string) => post(stratumUrl, { query: sql, read_only: true }, { authorization: `Bearer ${token}` }),
    }

    console.log('\nStratum benchmarks: the SQL query route (this machine, this session)')
    console.log(`load average before: ${os.loadavg().map((load) => load.toFixed(2)).join(' ')}`)
    const figures: Figure[] = []
    for (const bench of CASES) {
      const times: Record<keyof typeof ways, number[]> = { direct: [], plain: [], obliged: [], stratum: [] }
      const answer = (await ways.stratum(bench.sql)) as { results: Array<{ rows: unknown[] }> }
      const expected = (await ways.direct(bench.sql)).rows.length
      if (answer.results[0]?.rows.length !== expected) throw new Error(`${bench.name}: the route returned ${answer.results[0]?.rows.length} rows, expected ${expected}`)
      for (let i = 0; i < Math.ceil(bench.iterations / 10); i++) for (const way of Object.values(ways)) await way(bench.sql) // warm up
      for (let i = 0; i < bench.iterations; i++) {
        for (const [name, way] of Object.entries(ways) as [keyof typeof ways, (sql: string) => Promise<unknown>][]) times[name].push(await timed(() => way(bench.sql)))
      }
      // This process's CPU time per request, each way alone (client, server and pg client alike are in this process):
      // steadier than latency on a busy machine, and it says whether the route's extra time is work or waiting.
      const cpu: Record<'plain' | 'obliged' | 'stratum', number> = { plain: Infinity, obliged: Infinity, stratum: Infinity }
      for (const name of ['plain', 'obliged', 'stratum', 'plain', 'obliged', 'stratum'] as const) {
        const before = process.cpuUsage()
        for (let i = 0; i < bench.iterations; i++) await ways[name](bench.sql)
        const used = process.cpuUsage(before)
        cpu[name] = Math.min(cpu[name], (used.user + used.system) / 1000 / bench.iterations)
      }
      const p50 = (name: keyof typeof ways) => percentile(times[name], 0.5)
      const line = (name: keyof typeof ways) =>
        `p50 ${p50(name).toFixed(3)} ms, p95 ${percentile(times[name], 0.95).toFixed(3)} ms, p99 ${percentile(times[name], 0.99).toFixed(3)} ms; ratio to direct ${(p50(name) / p50('direct')).toFixed(2)}`
      console.log(`${bench.name} (${bench.iterations} runs each, interleaved)`)
      console.log(`  direct pg client:            ${line('direct')}`)
      console.log(`  plain Fastify + pg route:    ${line('plain')}`)
      console.log(`  the same, + reset + headers: ${line('obliged')}`)
      console.log(`  Stratum query route:         ${line('stratum')} (goal <= ${bench.goal})`)
      console.log(`  Stratum to the plain route:  ${(p50('stratum') / p50('plain')).toFixed(2)} (goal <= ${bench.plainGoal}); to it with the session reset and security headers: ${(p50('stratum') / p50('obliged')).toFixed(2)}`)
      console.log(`  CPU of this process per request (the lower of two runs each): the route ${cpu.stratum.toFixed(3)} ms, the plain route ${cpu.plain.toFixed(3)} ms, with the reset and headers ${cpu.obliged.toFixed(3)} ms`)
      const toPlain = ratioOf(p50('stratum'), p50('plain'))
      const toDirect = ratioOf(p50('stratum'), p50('direct'))
      figures.push(
        {
          name: `SQL route, ${bench.name} (p50), to the bare route`,
          now: `${p50('stratum').toFixed(3)} ms (p99 ${percentile(times.stratum, 0.99).toFixed(3)} ms)`,
          floor: `bare Fastify + pg route ${p50('plain').toFixed(3)} ms`,
          ratio: toPlain,
          goal: `<= ${bench.plainGoal}x the bare route`,
          met: toPlain <= bench.plainGoal,
        },
        {
          name: `SQL route, ${bench.name} (p50), to the bare route with the session reset and security headers`,
          now: `${p50('stratum').toFixed(3)} ms`,
          floor: `bare route + DISCARD ALL after the answer + the platform's security headers ${p50('obliged').toFixed(3)} ms`,
          ratio: ratioOf(p50('stratum'), p50('obliged')),
          goal: 'none set (what the route costs besides what every run must do)',
        },
        {
          name: `SQL route, ${bench.name}, CPU of the bench's process per request (client and server)`,
          now: `${cpu.stratum.toFixed(3)} ms`,
          floor: `bare Fastify + pg route ${cpu.plain.toFixed(3)} ms (with the session reset and security headers ${cpu.obliged.toFixed(3)} ms)`,
          ratio: ratioOf(cpu.stratum, cpu.plain),
          goal: 'none set',
        },
        {
          name: `SQL route, ${bench.name} (p50), to direct pg`,
          now: `${p50('stratum').toFixed(3)} ms`,
          floor: `direct pg client ${p50('direct').toFixed(3)} ms`,
          ratio: toDirect,
          goal: `<= ${bench.goal}x direct pg`,
          met: toDirect <= bench.goal,
        },
      )
    }
    recordFigures('sql-route', figures)
    console.log(`load average after: ${os.loadavg().map((load) => load.toFixed(2)).join(' ')}`)
    const profileDir = process.env.BENCH_SQL_CPU_PROF
    if (profileDir) {
      fs.mkdirSync(profileDir, { recursive: true })
      const session = new inspector.Session()
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: 100 })
      // The bare route's profile beside the route's: the difference is the route's own work.
      for (const bench of CASES) {
        for (const way of ['stratum', 'plain', 'obliged'] as const) {
          await session.post('Profiler.start')
          const started = performance.now()
          for (let i = 0; i < bench.iterations; i++) await ways[way](bench.sql)
          const perRun = (performance.now() - started) / bench.iterations
          const { profile } = await session.post('Profiler.stop')
          const file = path.join(profileDir, `sql-route-${{ stratum: '', plain: 'bare-', obliged: 'bare-obliged-' }[way]}${bench.name.replace(/\W+/g, '-')}.cpuprofile`)
          fs.writeFileSync(file, JSON.stringify(profile))
          console.log(`profile of ${bench.name}, ${{ stratum: 'the route', plain: 'the bare route', obliged: 'the bare route with the reset and headers' }[way]} (${bench.iterations} runs, ${perRun.toFixed(3)} ms a run): ${file}`)
        }
      }
      session.disconnect()
    }
    await direct.end()
    await plain.close()
    await obliged.close()
  } finally {
    await platform.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
