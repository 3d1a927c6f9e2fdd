// Logical dump and restore of a ~100 MB database between two real Postgres 17 instances.
// Run: npx tsx bench/logical.ts [--mb 100] [--major 15|17]   (the source's major; the target is 17)
// Prints the database size, the dump's size, and the time and throughput of each step.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import type { PostgresMajor } from '@stratum/contracts'
import { ADMIN_ROLE, adminConnection, bootstrapInstance } from '../apps/platform/src/control/bootstrap-roles.js'
import { isPortFree } from '../apps/platform/src/control/ports.js'
import { PostgresServer, platformHba } from '../apps/platform/src/control/postgres-server.js'
import { dumpDatabase, dumpToGzipFile, restoreFromGzipFile, type LogicalConnection } from '../apps/platform/src/control/logical/index.js'
import { recordFigures } from './figures.js'

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const targetMb = Number(arg('mb', '100'))
const sourceMajor = arg('major', '17') as PostgresMajor
const PASSWORD = 'bench-password'
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-logical-'))
fs.chmodSync(root, 0o755)
const servers: PostgresServer[] = []
const MB = 1024 * 1024

async function startServer(name: string, major: PostgresMajor, port: number): Promise<LogicalConnection> {
  while (!(await isPortFree(port))) port += 10
  const server = new PostgresServer(path.join(root, name), major, 'postgres')
  servers.push(server)
  await server.init(ADMIN_ROLE, PASSWORD)
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '' }, platformHba(false))
  await server.start()
  await bootstrapInstance(adminConnection(port, PASSWORD), { adminPassword: PASSWORD, initialUserPassword: PASSWORD, editorPassword: 'e', authenticatorPassword: 'a', readonlyPassword: 'r' })
  return { host: '127.0.0.1', port, user: ADMIN_ROLE, password: PASSWORD, database: 'postgres' }
}

async function query<T extends pg.QueryResultRow>(conn: LogicalConnection, sql: string): Promise<T[]> {
  const client = new pg.Client(conn)
  await client.connect()
  try {
    return (await client.query<T>(sql)).rows
  } finally {
    await client.end()
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now()
  const result = await run()
  const seconds = (performance.now() - started) / 1000
  return { result, seconds }
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)
const fmt = (n: number, digits = 1) => n.toFixed(digits)

async function main() {
  const block = 20_000 + Math.floor(Math.random() * 120) * 100
  const [source, target] = await Promise.all([startServer('source', sourceMajor, block), startServer('target', '17', block + 1)])

  // ~270 bytes a row on disk, text, numbers, arrays and JSON, plus two indexes.
  const rows = Math.round((targetMb * MB) / 270)
  await query(source, `
    CREATE TABLE public.events (
      id bigint PRIMARY KEY, name text NOT NULL, body text, amount numeric(12, 2), at timestamptz,
      tags text[], doc jsonb
    );
    INSERT INTO public.events
      SELECT g, 'event ' || g, repeat(md5(g::text), 2), g * 1.25, TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * interval '1 second',
             ARRAY['tag' || (g % 10), 'x'], jsonb_build_object('g', g, 'even', g % 2 = 0, 'h', left(md5((g + 1)::text), 12))
        FROM generate_series(1, ${rows}) g;
    CREATE INDEX events_at_idx ON public.events (at);`)
  await query(source, 'VACUUM ANALYZE public.events')
  const [size] = await query<{ bytes: string }>(source, `SELECT pg_database_size(current_database())::text AS bytes`)
  const dbMb = Number(size!.bytes) / MB

  // 1. The dump alone, into a sink: the bridge's own throughput.
  let sqlBytes = 0
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sqlBytes += chunk.length
      callback()
    },
  })
  const dump = await timed(() => pipeline(dumpDatabase(source), sink))
  const rssAfterDump = peakRssMb()

  // 2. The backup file: dump + gzip.
  const file = path.join(root, 'bench.sql.gz')
  const gz = await timed(() => dumpToGzipFile(source, file))

  // 3. Restore of that file into an empty database of the target (COPY, then indexes and constraints), as the upgrade
  // restores: its bootstrapped `postgres` database already holds the schemas the dump brings (auth, storage...).
  await query(target, 'CREATE DATABASE restored')
  const restored = { ...target, database: 'restored' }
  const restore = await timed(() => restoreFromGzipFile(restored, file))
  const check = `SELECT count(*)::text AS n, md5(string_agg(id::text || name || amount::text, ',' ORDER BY id)) AS sum FROM public.events`
  const [before, after] = await Promise.all([query(source, check), query(restored, check)])
  if (JSON.stringify(before) !== JSON.stringify(after)) throw new Error(`restored data differs: ${JSON.stringify({ before, after })}`)

  const sqlMb = sqlBytes / MB
  console.log(`logical dump/restore, source PG ${sourceMajor} -> target PG 17, ${rows} rows`)
  console.log(`  database size          ${fmt(dbMb)} MB (pg_database_size)`)
  console.log(`  plain SQL dump         ${fmt(sqlMb)} MB; .sql.gz ${fmt(gz.result.fileBytes / MB)} MB`)
  console.log(`  dump to a sink         ${fmt(dump.seconds, 2)} s  ${fmt(sqlMb / dump.seconds)} MB/s of SQL, ${fmt(dbMb / dump.seconds)} MB/s of database`)
  console.log(`  dump to .sql.gz        ${fmt(gz.seconds, 2)} s  ${fmt(sqlMb / gz.seconds)} MB/s of SQL`)
  console.log(`  restore from .sql.gz   ${fmt(restore.seconds, 2)} s  ${fmt(sqlMb / restore.seconds)} MB/s of SQL (${restore.result.copiedRows} rows)`)
  console.log(`  peak RSS of this process: ${rssAfterDump} MB after the dump, ${peakRssMb()} MB at the end`)
  // No goal was set for these and no floor is measured in the same run: they are recorded as they are.
  const what = `${fmt(dbMb)} MB database, PG ${sourceMajor} -> 17`
  const goal = 'none set'
  recordFigures('logical', [
    { name: `dump to a sink, ${what}`, now: `${fmt(dump.seconds, 2)} s, ${fmt(sqlMb / dump.seconds)} MB/s of SQL (${fmt(sqlMb)} MB)`, goal },
    { name: `dump to .sql.gz, ${what}`, now: `${fmt(gz.seconds, 2)} s, ${fmt(sqlMb / gz.seconds)} MB/s of SQL (${fmt(gz.result.fileBytes / MB)} MB file)`, goal },
    { name: `restore from .sql.gz, ${what}`, now: `${fmt(restore.seconds, 2)} s, ${fmt(sqlMb / restore.seconds)} MB/s of SQL`, goal },
    { name: 'peak RSS of the dumping process', now: `${rssAfterDump} MB after the dump, ${peakRssMb()} MB at the end`, goal },
  ])
}

try {
  await main()
} finally {
  await Promise.allSettled(servers.map((server) => server.stop()))
  fs.rmSync(root, { recursive: true, force: true })
}
