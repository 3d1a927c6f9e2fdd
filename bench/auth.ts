/**
 * `npm run bench`, the auth service (issue 11), against a platform run as `npm start` runs it:
 *
 * - password sign-in (`POST /auth/v1/token?grant_type=password`): p50 of sequential calls and
 *   throughput with 10 in flight for 5 s;
 * - token refresh (`grant_type=refresh_token`, rotating): p50 of sequential calls;
 * - beside them, in the same run, the bcrypt comparison alone (cost 10, GoTrue's) with the service's
 *   own password module: a sign-in cannot be cheaper than that, so the ratio says what the rest costs.
 */
import os from 'node:os'
import { hashPassword, passwordMatches } from '../apps/platform/src/services/auth/passwords.js'
import { recordFigures, ratioOf } from './figures.js'
import { call, median, startBenchPlatform, untilStatus } from './platform.js'

const PORT = 8795
const PORT_BLOCK = 29_800
const SAMPLES = 60
const EMAIL = 'bench-user@example.com'
const PASSWORD = 'bench-user-password-1'

async function main() {
  const platform = await startBenchPlatform(PORT, PORT_BLOCK)
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Auth bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const ref: string = project.ref
    // A benchmark signs in far more often than the default limits allow one address.
    await call(platform, 'PATCH', `/v1/projects/${ref}/config/auth`, { rate_limit_otp: 1_000_000, rate_limit_token_refresh: 1_000_000, mailer_autoconfirm: true })
    const keys = (await call(platform, 'GET', `/v1/projects/${ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const anon = keys.find((key) => key.name === 'anon')!.api_key
    const auth = `${platform.apiBase}/projects/${ref}/auth/v1`
    const post = async (path: string, body: object): Promise<{ ms: number; json: any }> => {
      const started = performance.now()
      const response = await fetch(auth + path, { method: 'POST', headers: { apikey: anon, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const json = await response.json()
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`)
      return { ms: performance.now() - started, json }
    }
    await post('/signup', { email: EMAIL, password: PASSWORD })
    const signIn = () => post('/token?grant_type=password', { email: EMAIL, password: PASSWORD })

    // Warm up, then alternate sign-ins with the bare bcrypt comparison so noise hits both alike.
    const hash = await hashPassword(PASSWORD)
    for (let i = 0; i < 5; i++) await signIn()
    const signIns: number[] = []
    const bcryptOnly: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      signIns.push((await signIn()).ms)
      const started = performance.now()
      if (!(await passwordMatches(PASSWORD, hash))) throw new Error('bcrypt compare failed')
      bcryptOnly.push(performance.now() - started)
    }
    const hashTimes: number[] = []
    for (let i = 0; i < 10; i++) {
      const started = performance.now()
      await hashPassword(PASSWORD)
      hashTimes.push(performance.now() - started)
    }

    let refreshToken: string = (await signIn()).json.refresh_token
    const refreshes: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const { ms, json } = await post('/token?grant_type=refresh_token', { refresh_token: refreshToken })
      refreshes.push(ms)
      refreshToken = json.refresh_token
    }

    const until = performance.now() + 5_000
    let done = 0
    const worker = async () => {
      while (performance.now() < until) {
        await signIn()
        done++
      }
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: 10 }, worker))
    const rps = done / ((performance.now() - started) / 1000)

    console.log('\nAuth service (/auth/v1, bcrypt cost 10 as GoTrue)')
    console.log(`  password sign-in p50 ${median(signIns).toFixed(1)} ms; bcrypt compare alone p50 ${median(bcryptOnly).toFixed(1)} ms: ratio ${(median(signIns) / median(bcryptOnly)).toFixed(2)}`)
    console.log(`  bcrypt hash alone (sign-up, password change) p50 ${median(hashTimes).toFixed(1)} ms`)
    console.log(`  password sign-in throughput (10 in flight, 5 s): ${rps.toFixed(1)} per second (bcrypt runs on libuv's 4 threads; the machine has ${os.cpus().length} cores)`)
    console.log(`  token refresh p50 ${median(refreshes).toFixed(1)} ms (rotation: one revoked, one issued, in one transaction)`)

    // Issue 11 asked for these beside bcrypt alone, with no threshold. Only the sign-in has a floor measured here;
    // the throughput and the refresh are recorded without one.
    const goal = 'none set (issue 11: beside bcrypt alone)'
    recordFigures('auth', [
      {
        name: 'password sign-in (p50)',
        now: `${median(signIns).toFixed(1)} ms`,
        floor: `bcrypt compare alone, cost 10 ${median(bcryptOnly).toFixed(1)} ms (hash alone ${median(hashTimes).toFixed(1)} ms)`,
        ratio: ratioOf(median(signIns), median(bcryptOnly)),
        goal,
      },
      { name: 'password sign-in throughput, 10 in flight for 5 s', now: `${rps.toFixed(1)}/s (${os.cpus().length} cores)`, goal },
      { name: 'token refresh, rotating (p50)', now: `${median(refreshes).toFixed(1)} ms`, goal },
    ])
  } finally {
    await platform.stop()
  }
}

await main()
