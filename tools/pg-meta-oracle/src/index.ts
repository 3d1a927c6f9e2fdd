/**
 * @supabase/postgres-meta, the reference the platform's introspection is compared with (meta server
 * tests) and timed against (bench/meta.ts). It lives in this workspace, not in apps/platform, because it
 * pulls about 160 packages (Sentry, OpenTelemetry, a second Fastify) that the platform never runs.
 *
 * It runs in a worker thread: importing it changes pg's global type parsers (timestamps become
 * strings), which the platform in the calling process relies on.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

/** postgres-meta's `tables.list({ includeColumns: true })`: its tables, and how long the call took inside the worker. */
export interface PostgresMetaTables {
  tables: Record<string, unknown>[]
  ms: number
}

/** The postgres-meta objects whose `list(options)` the oracle calls: `meta[kind].list(options)`. */
export const POSTGRES_META_KINDS = [
  'tables',
  'functions',
  'triggers',
  'types',
  'indexes',
  'publications',
  'roles',
  'policies',
  'columnPrivileges',
] as const
export type PostgresMetaKind = (typeof POSTGRES_META_KINDS)[number]

/** One `list` call: its kind and postgres-meta's own options (camelCase: includeSystemSchemas, includeArrayTypes...). */
export interface PostgresMetaListCall {
  kind: PostgresMetaKind
  options?: Record<string, unknown>
}

/** What one call answered, and how long it took inside the worker. */
export interface PostgresMetaListing {
  data: Record<string, unknown>[]
  ms: number
}

/** Resolved from this workspace, where the dependency is declared. */
function postgresMetaModuleUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('@supabase/postgres-meta')).href
}

const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then(async ({ PostgresMeta }) => {
  const meta = new PostgresMeta({ connectionString: workerData.connectionString, max: 1 })
  try {
    const results = []
    for (const call of workerData.calls) {
      const started = performance.now()
      const { data, error } = await meta[call.kind].list(call.options ?? {})
      const ms = performance.now() - started
      if (error) throw new Error(call.kind + ': ' + error.message)
      results.push({ data: data ?? [], ms })
    }
    parentPort.postMessage({ results, error: null })
  } finally {
    await meta.end()
  }
}).catch((error) => parentPort.postMessage({ error: String(error) }))`

/**
 * Runs postgres-meta's `list` calls, one after another in one worker (postgres-meta is imported once), against the
 * database at `connectionString`; answers in the order of the calls.
 */
export function listWithPostgresMeta(connectionString: string, calls: PostgresMetaListCall[]): Promise<PostgresMetaListing[]> {
  let module: string
  try {
    module = postgresMetaModuleUrl()
  } catch {
    return Promise.reject(new Error('@supabase/postgres-meta is not installed (run npm ci at the repository root)'))
  }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, connectionString, calls } })
  return new Promise<PostgresMetaListing[]>((resolve, reject) => {
    worker.once('message', (message) => (message.error ? reject(new Error(message.error)) : resolve(message.results)))
    worker.once('error', reject)
  }).finally(() => worker.terminate())
}

/** Lists the tables (with columns) of the database at `connectionString` as postgres-meta does. */
export async function listTablesWithPostgresMeta(connectionString: string): Promise<PostgresMetaTables> {
  const [listing] = await listWithPostgresMeta(connectionString, [{ kind: 'tables', options: { includeColumns: true } }])
  return { tables: listing!.data, ms: listing!.ms }
}
