/**
 * `npm run bench`, edge functions (issue 12), against a platform run as `npm start` runs it:
 *
 * - cold start: the first invoke after a deploy (the deploy stops the previous version's process, so
 *   this request starts a Deno process, imports the code and waits for its Deno.serve); goal < 100 ms (issue 32);
 *   also for a function importing npm:@supabase/supabase-js@2 once the project's module cache holds it;
 * - warm invoke p50 through the gateway (`POST /functions/v1/<slug>` with the anon key: JWT check,
 *   function lookup, proxy over the function's Unix socket, request log) beside the same code run as
 *   a bare `deno run` with Deno.serve on a TCP port, called directly; goal ratio <= 1.3 (issue 32).
 * Samples of the two are interleaved so that noise on a busy machine hits both alike.
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Agent, fetch as undiciFetch } from 'undici'
import { call, median, startBareProxy, startBenchPlatform, untilStatus, type BenchPlatform } from './platform.js'
import { recordFigures, ratioOf } from './figures.js'

const PORT = 8798
const PORT_BLOCK = 29_900
const BARE_PORT = 8799
const COLD_SAMPLES = 10
const WARM_SAMPLES = 300

const SOURCE = (marker: number) => `Deno.serve(async (req) => {
  const input = await req.json()
  return Response.json({ marker: ${marker}, echo: input })
})
`

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

function denoBinary(): string {
  const require = createRequire(path.resolve(import.meta.dirname, '../apps/platform/package.json'))
  return path.join(path.dirname(require.resolve('@deno/linux-x64-glibc/package.json')), 'deno')
}

async function deploy(platform: BenchPlatform, ref: string, slug: string, source: string): Promise<void> {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', name: slug }))
  form.append('file', new Blob([source], { type: 'application/typescript' }), 'index.ts')
  const response = await fetch(`${platform.base}/v1/projects/${ref}/functions/deploy?slug=${slug}`, {
    method: 'POST', headers: { authorization: `Bearer ${platform.token}` }, body: form,
  })
  if (response.status !== 201) throw new Error(`deploy: ${response.status} ${await response.text()}`)
}

async function timed(url: string, headers: Record<string, string>, expectMarker: number, dispatcher?: Agent): Promise<number> {
  const started = performance.now()
  const response = await (dispatcher ? (undiciFetch as unknown as typeof fetch) : fetch)(url, {
    ...(dispatcher ? { dispatcher } : {}), method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ n: 1 }) })
  const json = (await response.json()) as { marker: number }
  const ms = performance.now() - started
  if (!response.ok || json.marker !== expectMarker) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`)
  return ms
}

function waitForPort(port: number): Promise<void> {
  return new Promise((resolve) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve()
      })
      socket.once('error', () => setTimeout(attempt, 20))
    }
    attempt()
  })
}

async function main() {
  // BENCH_FUNCTIONS_CPU_PROF=<dir>: the platform process writes a V8 CPU profile there when it stops (cpu-profile-hook.mjs).
  const profile = process.env.BENCH_FUNCTIONS_CPU_PROF
  const platform = await startBenchPlatform(PORT, PORT_BLOCK, profile
    ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(import.meta.dirname, 'cpu-profile-hook.mjs')).href}`, BENCH_CPU_PROF_DIR: profile }
    : {})
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-deno-'))
  let bare: ReturnType<typeof spawn> | null = null
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Functions bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const ref: string = project.ref
    const keys = (await call(platform, 'GET', `/v1/projects/${ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const anon = keys.find((key) => key.name === 'anon')!.api_key
    const url = `${platform.apiBase}/projects/${ref}/functions/v1/bench`
    const headers = { authorization: `Bearer ${anon}`, apikey: anon }

    // Cold starts: each deploy replaces the process; the next request starts the new one.
    const colds: number[] = []
    for (let i = 1; i <= COLD_SAMPLES; i++) {
      await deploy(platform, ref, 'bench', SOURCE(i))
      colds.push(await timed(url, headers, i))
    }

    // Cold starts of a function importing supabase-js from npm, once the project's module cache has it
    // (the first deploy's request downloads it: not counted).
    const NPM_SOURCE = (marker: number) => `import { createClient } from 'npm:@supabase/supabase-js@2'\n` +
      `const client = createClient(Deno.env.get('SUPABASE_URL'), Deno.env.get('SUPABASE_ANON_KEY'))\n` + SOURCE(marker).replace('marker:', 'client: typeof client.from === "function", marker:')
    const npmUrl = `${platform.apiBase}/projects/${ref}/functions/v1/bench-npm`
    await deploy(platform, ref, 'bench-npm', NPM_SOURCE(0))
    await timed(npmUrl, headers, 0)
    const npmColds: number[] = []
    for (let i = 1; i <= 5; i++) {
      await deploy(platform, ref, 'bench-npm', NPM_SOURCE(i))
      npmColds.push(await timed(npmUrl, headers, i))
    }

    // A new project's first request to a function importing supabase-js: its module cache is empty, and gets the
    // installation's shared npm packages (downloaded by the platform once, on its first function start).
    const sharedReady = path.join(platform.dataDir, 'deno-shared', 'current', '.ready')
    for (let waited = 0; !fs.existsSync(sharedReady); waited += 50) {
      if (waited > 120_000) throw new Error('the shared npm cache was not ready after 2 minutes')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const sharedColds: number[] = []
    for (let i = 0; i < 3; i++) {
      const fresh = await call(platform, 'POST', '/platform/projects', { name: `Functions bench ${i + 2}`, organization_slug: platform.slug, db_pass: 'bench-db-password' })
      await untilStatus(platform, fresh.ref, 'ACTIVE_HEALTHY')
      const freshAnon = ((await call(platform, 'GET', `/v1/projects/${fresh.ref}/api-keys`)) as Array<{ name: string; api_key: string }>).find((key) => key.name === 'anon')!.api_key
      await deploy(platform, fresh.ref, 'bench-npm', NPM_SOURCE(i))
      sharedColds.push(await timed(`${platform.apiBase}/projects/${fresh.ref}/functions/v1/bench-npm`, { authorization: `Bearer ${freshAnon}`, apikey: freshAnon }, i))
    }

    // The same code as a bare Deno server on a TCP port: what the function costs without the platform.
    const file = path.join(scratch, 'bare.ts')
    fs.writeFileSync(file, SOURCE(0).replace('Deno.serve(', `Deno.serve({ port: ${BARE_PORT}, hostname: '127.0.0.1', onListen() {} }, `))
    bare = spawn(denoBinary(), ['run', '--no-prompt', '--no-config', `--allow-net=127.0.0.1:${BARE_PORT}`, file], {
      env: { PATH: '/usr/bin:/bin', DENO_DIR: path.join(scratch, 'deno'), HOME: scratch, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    await waitForPort(BARE_PORT)
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/bench`

    const last = COLD_SAMPLES
    for (let i = 0; i < 30; i++) {
      await timed(url, headers, last)
      await timed(bareUrl, {}, 0)
    }
    // The function's own process, its Unix socket called directly (no gateway): splits the ratio into the
    // gateway's hop and what the platform's Deno process costs beside a bare one (bootstrap, sandbox flags, socket).
    const runDir = path.join(platform.dataDir, 'run', `fn-${ref}`)
    // The bench function's socket is the one that answers with its marker (the npm function has its own).
    let socketAgent: Agent | null = null
    let functionSocket: string | undefined
    const socketUrl = 'http://localhost/bench'
    for (const name of fs.readdirSync(runDir).filter((file) => file.endsWith('.sock'))) {
      const agent = new Agent({ connect: { socketPath: path.join(runDir, name) } })
      const ok = await timed(socketUrl, {}, last, agent).then(() => true, () => false)
      if (ok) {
        socketAgent = agent
        functionSocket = path.join(runDir, name)
        break
      }
      await agent.close()
    }
    if (!socketAgent) throw new Error('the bench function\'s socket was not found')
    // The floor of any Node hop: the same function process behind a bare node:http + undici proxy (bare-proxy.mjs).
    const bareProxy = await startBareProxy(functionSocket!, '/functions/v1')
    const bareProxyUrl = `http://127.0.0.1:${bareProxy.port}/functions/v1/bench`
    for (let i = 0; i < 30; i++) {
      await timed(socketUrl, {}, last, socketAgent)
      await timed(bareProxyUrl, headers, last)
    }
    const viaGateway: number[] = []
    const direct: number[] = []
    const viaSocket: number[] = []
    const viaBareProxy: number[] = []
    const gatewayOnly: number[] = []
    const missing = `${platform.apiBase}/projects/${ref}/functions/v1/no-such-function`
    for (let i = 0; i < WARM_SAMPLES; i++) {
      viaGateway.push(await timed(url, headers, last))
      direct.push(await timed(bareUrl, {}, 0))
      viaSocket.push(await timed(socketUrl, {}, last, socketAgent))
      viaBareProxy.push(await timed(bareProxyUrl, headers, last))
      // The gateway's own share: the same request for a function that does not exist (key check, lookup, 404, request log).
      const started = performance.now()
      const response = await fetch(missing, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"n":1}' })
      await response.arrayBuffer()
      if (response.status !== 404) throw new Error(`unknown function: ${response.status}`)
      gatewayOnly.push(performance.now() - started)
    }
    await socketAgent.close()
    bareProxy.stop()
    const warm = median(viaGateway)
    const floor = median(direct)
    console.log('\nEdge functions (/functions/v1, one Deno process per function, Unix socket)')
    console.log(`  cold start (first invoke after deploy): median ${median(colds).toFixed(0)} ms of ${colds.map((ms) => ms.toFixed(0)).join(', ')} (goal < 100 ms)`)
    console.log(`  cold start importing npm:@supabase/supabase-js@2 (module cache warm): median ${median(npmColds).toFixed(0)} ms of ${npmColds.map((ms) => ms.toFixed(0)).join(', ')}`)
    console.log(`  first request of a new project's function importing npm:@supabase/supabase-js@2 (its cache empty; the installation's shared packages): median ${median(sharedColds).toFixed(0)} ms of ${sharedColds.map((ms) => ms.toFixed(0)).join(', ')}`)
    console.log(`  warm invoke p50 through the gateway ${warm.toFixed(2)} ms; the same code as a bare deno run, called directly, p50 ${floor.toFixed(2)} ms: ratio ${(warm / floor).toFixed(2)} (goal <= 1.3)`)
    console.log(`  the function's own process, its socket called directly (undici's fetch, no gateway) p50 ${median(viaSocket).toFixed(2)} ms`)
    console.log(`  the function's socket behind a bare node:http + undici proxy (own process, no checks) p50 ${median(viaBareProxy).toFixed(2)} ms: the gateway ${(warm / median(viaBareProxy)).toFixed(2)}x it`)
    console.log(`  p99 through the gateway ${percentile(viaGateway, 0.99).toFixed(2)} ms, bare deno ${percentile(direct, 0.99).toFixed(2)} ms`)
    console.log(`  the gateway alone (same request, unknown function: 404 without a process) p50 ${median(gatewayOnly).toFixed(2)} ms`)
    recordFigures('functions', [
      {
        name: 'function warm invoke through the gateway (p50)',
        now: `${warm.toFixed(2)} ms (p99 ${percentile(viaGateway, 0.99).toFixed(2)} ms)`,
        floor: `the same code under bare deno run, called directly ${floor.toFixed(2)} ms (the function's socket behind a bare Node proxy ${median(viaBareProxy).toFixed(2)} ms)`,
        ratio: ratioOf(warm, floor),
        goal: '<= 1.3x bare Deno',
        met: warm / floor <= 1.3,
      },
      { name: 'function cold start, no imports (median)', now: `${median(colds).toFixed(0)} ms`, goal: '< 100 ms', met: median(colds) < 100 },
      { name: 'function cold start importing npm:@supabase/supabase-js, the project\'s module cache warm (median)', now: `${median(npmColds).toFixed(0)} ms`, goal: 'none set' },
      {
        name: 'first request of a new project\'s function importing npm:@supabase/supabase-js (median of 3 projects)',
        now: `${median(sharedColds).toFixed(0)} ms`,
        floor: `the same import with the project's own cache warm ${median(npmColds).toFixed(0)} ms`,
        ratio: ratioOf(median(sharedColds), median(npmColds)),
        goal: 'served from a cache shared by the installation (558 ms before)',
        met: median(sharedColds) < 558,
      },
    ])
  } finally {
    bare?.kill('SIGTERM')
    await platform.stop()
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

await main()
