/**
 * `npm run bench`, the log collector's CPU cost (issue 16: goal < 1% of one core with 20 projects).
 * Run: flock /tmp/stratum-cpu.lock npx tsx bench/log-collector.ts [--instances 20] [--rate 5] [--seconds 60]
 *
 * 20 Postgres instances write their log as the platform's instances do (jsonlog files in data/log/); a
 * child process (so its CPU is not this process's) makes each write --rate lines a second (`raise log`).
 * This process runs only observability/logs/collector.ts at its default interval (2 s) against a platform
 * database of its own (migration 019, and projects in a free organization). Measured over --seconds: this process's CPU
 * (process.cpuUsage: the collector and its pool, nothing else runs here), the CPU inside the collector's
 * passes alone (cpuUsage deltas around collect()), and the platform database's CPU (its process tree in
 * /proc: the inserts). Baseline, in the same run: reading every jsonlog file written, splitting it into lines
 * and JSON.parse-ing each (the floor of any collector that tails these files), per 1000 lines. The lines stored
 * are also counted against the lines written (none lost, none repeated).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import pino from 'pino'
import { isPortFree } from '../apps/platform/src/control/ports.js'
import { PostgresServer } from '../apps/platform/src/control/postgres-server.js'
import { LogCollector } from '../apps/platform/src/observability/logs/collector.js'
import { postmasterPid, sampleProcessTree } from '../apps/platform/src/observability/usage/proc.js'
import { openPool } from '../apps/platform/src/store/db.js'
import { recordFigures, ratioOf } from './figures.js'

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const INSTANCES = Number(arg('instances', '20'))
const RATE = Number(arg('rate', '5'))
const SECONDS = Number(arg('seconds', '60'))
const INTERVAL_MS = 2000
const GOAL_PERCENT = 1
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-log-collector-'))
fs.chmodSync(root, 0o755)
const servers: PostgresServer[] = []
const repo = path.resolve(import.meta.dirname, '..')

/** The writers: one pg client per instance, RATE `raise log` statements a second each, until killed. */
const WRITERS = `
const pg = require('pg')
const ports = JSON.parse(process.argv[1]), rate = Number(process.argv[2])
let written = 0
for (const port of ports) {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
  client.connect().then(() => setInterval(() => {
    client.query("do $$ begin raise log 'bench line % from the log collector bench, some words to make it a line', " + (++written) + "; end $$").catch(() => {})
  }, 1000 / rate))
}
process.on('SIGTERM', () => { process.stdout.write(String(written) + '\\n'); process.exit(0) })
process.stdout.write('ready\\n')
`

async function nextPort(from: number): Promise<number> {
  let port = from
  while (!(await isPortFree(port))) port++
  return port
}

async function startServer(name: string, port: number, settings: Record<string, string | number> = {}): Promise<PostgresServer> {
  const server = new PostgresServer(path.join(root, name), '17', 'postgres')
  await server.init('postgres', 'bench-password')
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '', ...settings }, 'host all all 127.0.0.1/32 trust\n')
  await server.start()
  servers.push(server)
  return server
}

async function main() {
  let port = await nextPort(32_400)
  const platformDb = await startServer('platform-db', port)
  const dbUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  const setup = new pg.Client({ connectionString: dbUrl })
  await setup.connect()
  await setup.query(fs.readFileSync(path.join(repo, 'apps/platform/src/store/migrations/019_log_store.sql'), 'utf8'))
  // The platform's tables the store's maintenance reads (retention by plan): every bench project in a free organization,
  // so the minute's deletion of lines older than a day runs as it does for most projects.
  await setup.query(`CREATE TABLE organizations (id bigint PRIMARY KEY, plan text NOT NULL);
    INSERT INTO organizations VALUES (1, 'free');
    CREATE TABLE projects (ref text PRIMARY KEY, organization_id bigint NOT NULL REFERENCES organizations)`)

  const refs: string[] = []
  const ports: number[] = []
  const logDirs = new Map<string, string>()
  for (let index = 0; index < INSTANCES; index++) {
    port = await nextPort(port + 1)
    const ref = `benchproject${String(index).padStart(8, '0')}`
    const server = await startServer(ref, port, {
      logging_collector: 'on', log_destination: 'jsonlog', log_directory: 'log', log_filename: 'postgresql-%Y-%m-%d_%H%M%S.log', log_timezone: 'UTC',
    })
    refs.push(ref)
    ports.push(port)
    logDirs.set(ref, path.join(server.dataDir, 'log'))
    await setup.query('INSERT INTO projects (ref, organization_id) VALUES ($1, 1)', [ref])
  }

  const db = openPool(dbUrl)
  const collector = new LogCollector({ db, log: pino({ level: 'warn' }), logDirOf: (ref) => logDirs.get(ref) ?? null, intervalMs: INTERVAL_MS })
  // Each pass's own CPU: deltas of process.cpuUsage around collect() (the timer calls it through this).
  const passCpu: number[] = []
  const collect = collector.collect.bind(collector)
  collector.collect = () => {
    const before = process.cpuUsage()
    return collect().finally(() => {
      const used = process.cpuUsage(before)
      passCpu.push((used.user + used.system) / 1000)
    })
  }
  await collector.collect() // the instances' start-up lines
  const writers = spawn(process.execPath, ['-e', WRITERS, JSON.stringify(ports), String(RATE)], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] })
  const writerOut: string[] = []
  writers.stdout!.on('data', (chunk: Buffer) => writerOut.push(chunk.toString()))
  await new Promise<void>((resolve) => writers.stdout!.once('data', () => resolve()))
  await new Promise((resolve) => setTimeout(resolve, 3000)) // writers connected and writing
  const { rows: [before] } = await setup.query<{ n: number }>('SELECT count(*)::int AS n FROM log_events')
  const dbPid = postmasterPid(platformDb.dataDir)!
  const dbCpuBefore = sampleProcessTree(dbPid)!.cpuSeconds

  collector.start()
  passCpu.length = 0
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))
  const cpu = process.cpuUsage(cpuBefore)
  const wallMs = performance.now() - started
  const dbCpuSeconds = sampleProcessTree(dbPid)!.cpuSeconds - dbCpuBefore
  await collector.stop()
  writers.kill('SIGTERM')
  await new Promise((resolve) => writers.once('exit', resolve))
  const written = Number(writerOut.join('').split('\n').filter(Boolean).at(-1))
  await collector.collect() // the last lines
  const { rows: [after] } = await setup.query<{ n: number; bench: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE event_message LIKE 'bench line %')::int AS bench FROM log_events`)
  const { rows: [dupes] } = await setup.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT project_ref, event_message FROM log_events WHERE event_message LIKE 'bench line %' GROUP BY 1, 2 HAVING count(*) > 1) d`)
  await setup.end()
  await db.end()

  // The floor: every file read whole, split into lines, each line parsed (warm once, then timed).
  const floor = () => {
    let lines = 0
    for (const dir of logDirs.values()) {
      for (const name of fs.readdirSync(dir).filter((file) => file.endsWith('.json'))) {
        for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
          if (line) {
            JSON.parse(line)
            lines++
          }
        }
      }
    }
    return lines
  }
  floor()
  const floorBefore = process.cpuUsage()
  const floorLines = floor()
  const floorCpu = process.cpuUsage(floorBefore)
  const floorPerThousand = (floorCpu.user + floorCpu.system) / 1000 / (floorLines / 1000)

  const processMs = (cpu.user + cpu.system) / 1000
  const passesMs = passCpu.reduce((sum, value) => sum + value, 0)
  const share = (value: number) => ((value / wallMs) * 100).toFixed(3)
  const linesPerSecond = (after!.n - before!.n) / (wallMs / 1000)
  console.log(`\nLog collector: ${INSTANCES} instances writing ${RATE} lines/s each (jsonlog), collected every ${INTERVAL_MS / 1000} s, over ${(wallMs / 1000).toFixed(0)} s`)
  console.log(`  lines stored while measured: ${(after!.n - before!.n).toLocaleString('en')} (${linesPerSecond.toFixed(0)}/s); all told ${after!.bench.toLocaleString('en')} of ${written.toLocaleString('en')} written, ${dupes!.n} repeated`)
  console.log(`  collector process CPU (everything in this process): ${processMs.toFixed(0)} ms = ${share(processMs)}% of one core (goal < ${GOAL_PERCENT}%: ${processMs / wallMs * 100 < GOAL_PERCENT ? 'met' : 'NOT met'})`)
  console.log(`  inside its ${passCpu.length} passes (cpuUsage deltas around collect()): ${passesMs.toFixed(0)} ms, ${(passesMs / Math.max(1, passCpu.length)).toFixed(1)} ms a pass = ${share(passesMs)}% of one core`)
  const perThousand = processMs / ((after!.n - before!.n) / 1000)
  console.log(`  per 1000 lines: collector ${perThousand.toFixed(1)} ms CPU vs the floor (read the files, split, JSON.parse each line: ${floorLines.toLocaleString('en')} lines) ${floorPerThousand.toFixed(1)} ms; ratio ${(perThousand / floorPerThousand).toFixed(1)}`)
  console.log(`  the platform database storing them (its process tree, /proc): ${(dbCpuSeconds * 1000).toFixed(0)} ms = ${share(dbCpuSeconds * 1000)}% of one core`)

  // The floor (read, split, parse) is measured per 1000 lines; for the share of a core it is scaled to the lines the
  // collector stored while measured, so both sides count the same lines.
  const linesMeasured = after!.n - before!.n
  const floorMs = floorPerThousand * (linesMeasured / 1000)
  recordFigures('log-collector', [
    {
      name: `collector process CPU, ${INSTANCES} instances x ${RATE} lines/s, every ${INTERVAL_MS / 1000} s`,
      now: `${share(processMs)}% of one core (${share(passesMs)}% inside its passes)`,
      floor: `reading, splitting and JSON.parse-ing the same ${linesMeasured.toLocaleString('en')} lines ${share(floorMs)}% of one core`,
      ratio: ratioOf(processMs, floorMs),
      goal: `< ${GOAL_PERCENT}% of one core`,
      met: (processMs / wallMs) * 100 < GOAL_PERCENT,
    },
    {
      name: 'collector CPU per 1000 lines stored',
      now: `${perThousand.toFixed(1)} ms`,
      floor: `reading, splitting and JSON.parse-ing 1000 lines ${floorPerThousand.toFixed(1)} ms`,
      ratio: ratioOf(perThousand, floorPerThousand),
      goal: 'none set',
    },
    { name: 'platform database CPU storing the lines', now: `${share(dbCpuSeconds * 1000)}% of one core`, goal: 'none set' },
    {
      name: 'lines stored of the lines written',
      now: `${after!.bench.toLocaleString('en')} of ${written.toLocaleString('en')}, ${dupes!.n} repeated`,
      goal: 'none lost, none repeated',
      met: after!.bench === written && dupes!.n === 0,
    },
  ])
}

try {
  await main()
} finally {
  await Promise.allSettled(servers.map((server) => server.stop()))
  fs.rmSync(root, { recursive: true, force: true })
}
