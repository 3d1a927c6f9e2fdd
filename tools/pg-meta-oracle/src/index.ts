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

/** Resolved from this workspace, where the dependency is declared. */
function postgresMetaModuleUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('@supabase/postgres-meta')).href
}

const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then(async ({ PostgresMeta }) => {
  const meta = new PostgresMeta({ connectionString: workerData.connectionString, max: 1 })
  const started = performance.now()
  const { data, error } = await meta.tables.list({ includeColumns: true })
  const ms = performance.now() - started
  await meta.end()
  parentPort.postMessage({ tables: data, ms, error: error ? error.message : null })
}).catch((error) => parentPort.postMessage({ error: String(error) }))`

/** Lists the tables (with columns) of the database at `connectionString` as postgres-meta does. */
export function listTablesWithPostgresMeta(connectionString: string): Promise<PostgresMetaTables> {
  let module: string
  try {
    module = postgresMetaModuleUrl()
  } catch {
    return Promise.reject(new Error('@supabase/postgres-meta is not installed (run npm ci at the repository root)'))
  }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, connectionString } })
  return new Promise<PostgresMetaTables>((resolve, reject) => {
    worker.once('message', (message) => (message.error ? reject(new Error(message.error)) : resolve({ tables: message.tables ?? [], ms: message.ms })))
    worker.once('error', reject)
  }).finally(() => worker.terminate())
}
