import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { findFreePort } from '../control/ports.js'
import { PLATFORM_DB_OS_USER } from '../control/os-user.js'
import { PostgresServer, platformHba } from '../control/postgres-server.js'

export interface PlatformDatabase {
  url: string
  /** The embedded server, or null when PLATFORM_DATABASE_URL points elsewhere. */
  server: PostgresServer | null
  /** False when the embedded server was already running (a CLI command beside a running platform). */
  startedHere: boolean
}

interface EmbeddedState {
  port: number
  password: string
}

/**
 * The platform's own data lives in an embedded Postgres under the data directory unless
 * PLATFORM_DATABASE_URL is set. The embedded server keeps its port and password in
 * platform-db.json so that it comes back the same way after a restart.
 */
export async function openPlatformDatabase(dataDir: string, externalUrl: string | null, preferredPort = 0): Promise<PlatformDatabase> {
  if (externalUrl) return { url: externalUrl, server: null, startedHere: false }

  const stateFile = path.join(dataDir, 'platform-db.json')
  fs.mkdirSync(dataDir, { recursive: true })
  let state: EmbeddedState
  if (fs.existsSync(stateFile)) {
    state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as EmbeddedState
  } else {
    state = { port: preferredPort || (await findFreePort(15_432)), password: randomBytes(24).toString('hex') }
    fs.writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 })
  }

  const server = new PostgresServer(path.join(dataDir, 'platform-db'), '17', PLATFORM_DB_OS_USER)
  await server.init('stratum', state.password)
  server.writeSettings(
    { port: state.port, listen_addresses: '127.0.0.1', unix_socket_directories: '', max_connections: 100 },
    platformHba(false),
  )
  const startedHere = !(await server.isRunning())
  try {
    await server.start()
  } catch (error) {
    throw new Error(`The platform database did not start: ${(error as Error).message}\n${server.logTail()}`)
  }
  const base = `postgres://stratum:${state.password}@127.0.0.1:${state.port}`
  await ensureDatabase(`${base}/postgres`, 'stratum')
  return { url: `${base}/stratum`, server, startedHere }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`)
  } finally {
    await client.end()
  }
}
