// The usage collector's CPU cost with 20 running Postgres instances (issue 16: goal < 1% of one core).
// Run: npx tsx bench/usage-collector.ts [--instances 20] [--passes 30]
// Measures the collector's own work per pass (the /proc read of each instance's process tree, and the data
// directory walk) with process.cpuUsage, and turns it into a share of one core at the default intervals
// (STRATUM_USAGE_INTERVAL_MS 5 s, STRATUM_USAGE_DISK_INTERVAL_MS 30 s). Baseline: the same walk done by `du -s`.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { isPortFree } from '../apps/platform/src/control/ports.js'
import { PostgresServer } from '../apps/platform/src/control/postgres-server.js'
import { DirectorySizer } from '../apps/platform/src/observability/usage/dir-size.js'
import { postmasterPid, sampleProcessTree } from '../apps/platform/src/observability/usage/proc.js'
import { recordFigures, ratioOf } from './figures.js'

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const INSTANCES = Number(arg('instances', '20'))
const PASSES = Number(arg('passes', '30'))
const SAMPLE_EVERY_S = 5
const DISK_EVERY_S = 30
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-usage-'))
fs.chmodSync(root, 0o755)
const servers: PostgresServer[] = []
const clients: pg.Client[] = []

/** CPU milliseconds (user + system) fn takes, on average over the passes. */
function cpuMs(fn: () => void): number {
  fn() // warm: caches and JIT
  const before = process.cpuUsage()
  for (let pass = 0; pass < PASSES; pass++) fn()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000 / PASSES
}

async function main() {
  let port = 32_100
  for (let index = 0; index < INSTANCES; index++) {
    while (!(await isPortFree(port))) port++
    const server = new PostgresServer(path.join(root, `p${index}`), '17', 'postgres')
    await server.init('postgres', 'bench-password')
    server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '' }, 'host all all 127.0.0.1/32 trust\n')
    await server.start()
    servers.push(server)
    // Two idle sessions each, as an application's pool would hold.
    for (let session = 0; session < 2; session++) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
      await client.connect()
      clients.push(client)
    }
    port++
  }
  const dirs = servers.map((server) => server.dataDir)
  const pids = dirs.map((dir) => postmasterPid(dir)!)
  const files = Number(execFileSync('sh', ['-c', `find ${root} -type f | wc -l`]).toString().trim())

  const sizer = new DirectorySizer()
  let connections = 0
  const sampleMs = cpuMs(() => {
    connections = 0
    for (const pid of pids) connections += sampleProcessTree(pid)!.connections
  })
  const walkMs = cpuMs(() => {
    for (const dir of dirs) sizer.size(dir)
  })
  const started = process.hrtime.bigint()
  for (let pass = 0; pass < 3; pass++) execFileSync('du', ['-s', ...dirs])
  const duMs = Number(process.hrtime.bigint() - started) / 1e6 / 3

  const share = (sampleMs / 1000 / SAMPLE_EVERY_S + walkMs / 1000 / DISK_EVERY_S) * 100
  const everyFive = ((sampleMs + walkMs) / 1000 / SAMPLE_EVERY_S) * 100
  console.log(`usage collector, ${INSTANCES} instances (${files} files in their data directories, ${connections} client connections seen)`)
  console.log(`  /proc sample of every process tree: ${sampleMs.toFixed(2)} ms CPU per pass`)
  console.log(`  data directory walk of every instance: ${walkMs.toFixed(2)} ms CPU per pass (du -s of the same: ${duMs.toFixed(1)} ms wall)`)
  console.log(`  at the defaults (sample every ${SAMPLE_EVERY_S} s, walk every ${DISK_EVERY_S} s): ${share.toFixed(3)}% of one core (goal < 1%)`)
  console.log(`  walking every ${SAMPLE_EVERY_S} s too: ${everyFive.toFixed(3)}% of one core`)
  // The one floor measured here is `du -s` of the same directories (its wall time: its CPU is another process's);
  // the /proc sample and the share of a core have none.
  recordFigures('usage-collector', [
    { name: `CPU share at the defaults, ${INSTANCES} instances (sample every ${SAMPLE_EVERY_S} s, walk every ${DISK_EVERY_S} s)`, now: `${share.toFixed(3)}% of one core`, goal: '< 1% of one core', met: share < 1 },
    { name: `CPU share walking every ${SAMPLE_EVERY_S} s too, ${INSTANCES} instances`, now: `${everyFive.toFixed(3)}% of one core`, goal: 'none set' },
    { name: `/proc sample of ${INSTANCES} process trees, per pass`, now: `${sampleMs.toFixed(2)} ms CPU`, goal: 'none set' },
    {
      name: `data directory walk of ${INSTANCES} instances (${files} files), per pass`,
      now: `${walkMs.toFixed(2)} ms CPU`,
      floor: `du -s of the same directories ${duMs.toFixed(1)} ms wall`,
      ratio: ratioOf(walkMs, duMs),
      goal: 'none set',
    },
  ])
  if (share >= 1) process.exitCode = 1
}

try {
  await main()
} finally {
  await Promise.allSettled(clients.map((client) => client.end()))
  await Promise.allSettled(servers.map((server) => server.stop()))
  fs.rmSync(root, { recursive: true, force: true })
}
