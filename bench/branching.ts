// Branches and WAL archiving (issue 14).
// Run: npx tsx bench/branching.ts [--sizes 100,1000] [--transactions 1500] [--no-archiving]
// 1. A branch's copy: the physical online copy of a running Postgres (control/branching/online-copy.ts) of a 100 MB
//    and a 1 GB database, then the copy's start (its recovery included), beside `cp -a` of the same data directory (the
//    floor, taken in the same run; it leaves the data in the page cache, where the branch's copy is on disk when it
//    answers, see durable-copy.ts). Where the time goes is printed: backup start (its checkpoint), files, backup stop,
//    WAL, the server's start. On this machine's filesystem, and on XFS with reflinks when one can be made on a loop
//    device (root and mkfs.xfs present; else said). Goals (issue 32): answering <= 1.3x cp -a without reflinks,
//    < 1 s with them. The load average is printed before and after.
// 2. WAL archiving's cost: a write-heavy pgbench-like load (8 clients, each transaction an UPDATE and an INSERT),
//    archive_mode off against on (the add-on's archive_command), alternated three times each, the medians compared;
//    goal < 10% throughput loss.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PRIVILEGED_SESSION_OPTIONS } from '../apps/platform/src/control/bootstrap-roles.js'
import { copyRunningCluster } from '../apps/platform/src/control/branching/online-copy.js'
import { archiveSettings } from '../apps/platform/src/control/pitr/archive-paths.js'
import { makeOwnedDir } from '../apps/platform/src/control/os-user.js'
import { isPortFree } from '../apps/platform/src/control/ports.js'
import { PostgresServer } from '../apps/platform/src/control/postgres-server.js'
import { recordFigures, ratioOf, type Figure } from './figures.js'

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const SIZES_MB = arg('sizes', '100,1000').split(',').map(Number)
const TRANSACTIONS = Number(arg('transactions', '1500'))
const CLIENTS = 8
const ARCHIVING_ROUNDS = 3
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
/** Bytes a row of the filler table takes on disk, about (measured sizes are printed). */
const ROW_BYTES = 165
const XFS_MOUNT = '/mnt/stratum-bench-xfs'

let nextPort = 32_400
async function freePort(): Promise<number> {
  while (!(await isPortFree(nextPort))) nextPort++
  return nextPort++
}

async function startServer(dir: string, settings: Record<string, string | number> = {}): Promise<{ server: PostgresServer; port: number }> {
  const server = new PostgresServer(dir, '17', 'postgres')
  await server.init('postgres', 'bench-password')
  const port = await freePort()
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '', max_wal_size: '1GB', ...settings }, 'host all all 127.0.0.1/32 trust\n')
  await server.start()
  return { server, port }
}

const connection = (port: number) => ({ host: '127.0.0.1', port, user: 'postgres', password: 'bench-password', database: 'postgres', options: PRIVILEGED_SESSION_OPTIONS })

async function query(port: number, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client(connection(port))
  client.on('error', () => {})
  await client.connect()
  try {
    return await client.query(text)
  } finally {
    await client.end()
  }
}

const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9

/** A filesystem with reflinks, when this machine can make one: an XFS image on a loop device. */
function mountXfs(): string | null {
  if (process.getuid?.() !== 0) return null
  try {
    execFileSync('sh', ['-c', 'command -v mkfs.xfs'])
  } catch {
    return null
  }
  const image = path.join(os.tmpdir(), 'stratum-bench-xfs.img')
  try {
    fs.mkdirSync(XFS_MOUNT, { recursive: true })
    execFileSync('truncate', ['-s', '8G', image])
    execFileSync('mkfs.xfs', ['-q', '-f', '-m', 'reflink=1', image])
    execFileSync('mount', ['-o', 'loop', image, XFS_MOUNT])
    fs.chmodSync(XFS_MOUNT, 0o755)
    return XFS_MOUNT
  } catch (error) {
    console.log(`  (no XFS on a loop device here: ${(error as Error).message.split('\n')[0]})`)
    fs.rmSync(image, { force: true })
    return null
  }
}

function unmountXfs(): void {
  try {
    execFileSync('umount', [XFS_MOUNT])
  } catch {
    /* not mounted */
  }
  fs.rmSync(path.join(os.tmpdir(), 'stratum-bench-xfs.img'), { force: true })
}

async function branchCopies(root: string, label: string): Promise<void> {
  for (const megabytes of SIZES_MB) {
    const dir = fs.mkdtempSync(path.join(root, 'stratum-bench-branch-'))
    fs.chmodSync(dir, 0o755)
    const { server, port } = await startServer(path.join(dir, 'parent'))
    try {
      const rows = Math.round((megabytes * 1024 * 1024) / ROW_BYTES)
      await query(port, `CREATE TABLE public.filler AS SELECT i, repeat(md5(i::text), 4) AS payload FROM generate_series(1, ${rows}) i`)
      await query(port, 'CHECKPOINT')
      const size = Number((await query(port, `SELECT pg_database_size('postgres') AS size`)).rows[0].size) / 1024 / 1024

      // The floor's data leaves the page cache's dirty pages first: it does not slow the copy measured after it.
      execFileSync('sync')
      let started = process.hrtime.bigint()
      execFileSync('cp', ['-a', server.dataDir, path.join(dir, 'floor')])
      const floor = seconds(started)
      // What it takes to have that copy on disk too (the branch's copy is): shown beside the floor.
      started = process.hrtime.bigint()
      execFileSync('sync')
      const floorSync = seconds(started)
      fs.rmSync(path.join(dir, 'floor'), { recursive: true, force: true })
      execFileSync('sync')

      started = process.hrtime.bigint()
      const branch = new PostgresServer(path.join(dir, 'branch'), '17', 'postgres')
      // As the instance provider does: the copy's files are given to the branch's OS user as they are copied.
      makeOwnedDir(branch.dir, branch.owner)
      const copy = await copyRunningCluster(connection(port), server.dataDir, path.join(dir, 'branch', 'data'), 'bench', branch.owner.switched ? branch.owner : undefined)
      const copied = seconds(started)
      const branchPort = await freePort()
      branch.writeSettings({ port: branchPort, listen_addresses: 'localhost', unix_socket_directories: '' }, 'host all all 127.0.0.1/32 trust\n')
      const starting = process.hrtime.bigint()
      await branch.start()
      await query(branchPort, 'SELECT 1')
      const startedIn = seconds(starting)
      const ready = seconds(started)
      // Checked after the clock stopped: counting a gigabyte is not part of making a branch.
      const count = Number((await query(branchPort, 'SELECT count(*) AS n FROM public.filler')).rows[0].n)
      await branch.stop()
      if (count !== rows) throw new Error(`the copy holds ${count} rows, not ${rows}`)

      // A reset, as branch-operations.ts's branchReset does it: the branch's data discarded (the provider's
      // discardData), the parent copied again, the copy started and answering.
      const resetStarted = process.hrtime.bigint()
      await branch.discardData()
      const discarded = seconds(resetStarted)
      const again = await copyRunningCluster(connection(port), server.dataDir, branch.dataDir, 'bench reset', branch.owner.switched ? branch.owner : undefined)
      branch.writeSettings({ port: branchPort, listen_addresses: 'localhost', unix_socket_directories: '' }, 'host all all 127.0.0.1/32 trust\n')
      await branch.start()
      await query(branchPort, 'SELECT 1')
      const resetReady = seconds(resetStarted)
      await branch.stop()
      const goal = copy.method === 'reflink' ? ' (goal < 1 s)' : ` (goal <= 1.3x cp -a: ${(1.3 * floor).toFixed(2)} s)`
      figures.push({
        name: `branch of a ${size.toFixed(0)} MB database answering, ${label}`,
        now: `${ready.toFixed(2)} s (${copy.method})`,
        floor: `cp -a ${floor.toFixed(2)} s (then sync ${floorSync.toFixed(2)} s)`,
        ratio: ratioOf(ready, floor),
        goal: copy.method === 'reflink' ? '< 1 s with reflink' : '<= 1.3x cp -a',
        met: copy.method === 'reflink' ? ready < 1 : ready <= 1.3 * floor,
      })
      figures.push({
        name: `reset of a branch of a ${size.toFixed(0)} MB database answering, ${label}`,
        now: `${resetReady.toFixed(2)} s (${again.method}; discarding the branch's data ${discarded.toFixed(2)} s)`,
        floor: `cp -a ${floor.toFixed(2)} s`,
        ratio: ratioOf(resetReady, floor),
        goal: again.method === 'reflink' ? '< 1 s with reflink' : '<= 1.3x cp -a',
        met: again.method === 'reflink' ? resetReady < 1 : resetReady <= 1.3 * floor,
      })
      const phases = copy.phases
      console.log(
        `  ${label}: ${size.toFixed(0)} MB database: cp -a ${floor.toFixed(2)} s (floor; then sync ${floorSync.toFixed(2)} s) | online copy (${copy.method}) ${copied.toFixed(2)} s ` +
          `[backup start ${phases.backupStart.toFixed(2)}, files ${phases.files.toFixed(2)}, backup stop ${phases.backupStop.toFixed(2)}, WAL ${phases.wal.toFixed(2)}] | ` +
          `start and first answer ${startedIn.toFixed(2)} s | branch answering ${ready.toFixed(2)} s = ${(ready / floor).toFixed(2)}x cp -a${goal} | ` +
          `reset answering ${resetReady.toFixed(2)} s = ${(resetReady / floor).toFixed(2)}x cp -a (its data discarded in ${discarded.toFixed(2)} s)`,
      )
    } finally {
      await server.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Transactions per second of the write-heavy load against the server at `port`. */
async function writeLoad(port: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new pg.Client(connection(port))
      client.on('error', () => {})
      await client.connect()
      return client
    }),
  )
  const started = process.hrtime.bigint()
  await Promise.all(
    clients.map(async (client, index) => {
      for (let n = 0; n < TRANSACTIONS; n++) {
        const account = 1 + ((index * TRANSACTIONS + n * 7919) % 100_000)
        await client.query('BEGIN')
        await client.query('UPDATE public.accounts SET balance = balance + 1 WHERE id = $1', [account])
        await client.query('INSERT INTO public.history (account, delta, at) VALUES ($1, 1, now())', [account])
        await client.query('COMMIT')
      }
    }),
  )
  const elapsed = seconds(started)
  await Promise.all(clients.map((client) => client.end()))
  return (CLIENTS * TRANSACTIONS) / elapsed
}

async function archivingCost(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-archive-'))
  fs.chmodSync(dir, 0o755)
  const wal = path.join(dir, 'wal')
  fs.mkdirSync(wal)
  execFileSync('chown', ['postgres', wal])
  const { server, port } = await startServer(path.join(dir, 'db'))
  try {
    await query(port, `CREATE TABLE public.accounts (id int PRIMARY KEY, balance int NOT NULL); INSERT INTO public.accounts SELECT i, 0 FROM generate_series(1, 100000) i;
                       CREATE TABLE public.history (id bigserial PRIMARY KEY, account int, delta int, at timestamptz)`)
    const results: Record<'off' | 'on', number[]> = { off: [], on: [] }
    // Alternated, three of each, the median kept: one short run on this machine varies by more than the 10% measured.
    for (const mode of Array.from({ length: ARCHIVING_ROUNDS }, () => ['off', 'on'] as const).flat()) {
      server.writeSettings(
        { port, listen_addresses: 'localhost', unix_socket_directories: '', max_wal_size: '1GB', ...(mode === 'on' ? archiveSettings(wal) : {}) },
        'host all all 127.0.0.1/32 trust\n',
      )
      await server.restart()
      results[mode].push(await writeLoad(port))
    }
    const off = median(results.off)
    const on = median(results.on)
    const archived = fs.readdirSync(wal).length
    console.log(
      `  write load, ${CLIENTS} clients x ${TRANSACTIONS} transactions (median of ${ARCHIVING_ROUNDS} each, alternated): archiving off ${off.toFixed(0)} tx/s | on ${on.toFixed(0)} tx/s ` +
        `(${archived} segments archived) = ${(on / off).toFixed(3)}x, ${((1 - on / off) * 100).toFixed(1)}% loss (goal < 10%)`,
    )
    figures.push({
      name: `write load with WAL archiving on (PITR add-on), ${CLIENTS} clients`,
      now: `${on.toFixed(0)} tx/s`,
      floor: `archiving off ${off.toFixed(0)} tx/s`,
      ratio: ratioOf(on, off),
      goal: '< 10% throughput loss',
      met: on / off > 0.9,
    })
  } finally {
    await server.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** What this run measured, for bench/README.md (figures.ts). */
const figures: Figure[] = []

const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

async function main() {
  console.log(`Load average before: ${loadAverage()} (${os.cpus().length} cores)`)
  console.log('Branch copies (online physical copy, then the copy started and answering):')
  await branchCopies(os.tmpdir(), `${os.tmpdir()} (${execFileSync('sh', ['-c', `df -T ${os.tmpdir()} | tail -1 | awk '{print $2}'`]).toString().trim()})`)
  const xfs = mountXfs()
  try {
    if (xfs) await branchCopies(xfs, 'XFS with reflink on a loop device')
    else console.log('  reflink: not measured (needs root and mkfs.xfs to make an XFS file system on a loop device)')
  } finally {
    if (xfs) unmountXfs()
  }
  console.log('WAL archiving (the PITR add-on):')
  if (process.argv.includes('--no-archiving')) console.log('  not measured (--no-archiving)')
  else await archivingCost()
  console.log(`Load average after: ${loadAverage()}`)
  recordFigures('branching', figures)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
