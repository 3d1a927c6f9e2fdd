import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'
import type { SecretBox } from '../../control/secret-box.js'
import { findFunction, versionDir, type FunctionRow } from './store.js'
import { openSecrets } from './secrets.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import type { Db } from '../../store/db.js'
import { BOOTSTRAP_SOURCE } from './bootstrap.js'
import { ProjectProcessManager } from '../../control/processes/project-process-manager.js'
import { FunctionProcess } from './function-process.js'
import { checkNpmrc, deniedNet, prepareProjectDirs, protectFunctionCode, removeProjectFiles, writePlatformFile, type FunctionDirs } from './sandbox.js'
import { mergedImportMap, stdHttpImports } from './std-http.js'
import { SharedNpmCache } from './shared-npm-cache.js'

/**
 * Longest wait for a function to call Deno.serve after its process starts. Generous: the first start
 * of a function that imports npm: or remote modules downloads them into the project's module cache.
 */
const START_TIMEOUT_MS = 60_000
/** Function records are kept this long between lookups; deploys and deletes drop them at once. */
const ROW_TTL_MS = 5_000
/**
 * The CPU time one request may use, as a share of its wall-clock limit (STRATUM_FUNCTION_TIMEOUT_MS):
 * 0.5, so 75 s of CPU by default (configurable through that setting). Supabase allows 2 s, too strict
 * here: the process is shared by concurrent requests, GC and compiler threads count, and on a busy
 * shared machine a dynamic import's compile alone can take seconds. This one stops a request that
 * spins, in one thread or many, well before its wall-clock limit would.
 */
export const CPU_SHARE_OF_TIMEOUT = 0.5

export interface FunctionRuntimeOptions {
  db: Db
  secrets: SecretBox
  dataDir: string
  /** The platform database's port when it is on this machine: denied to functions. */
  platformDbPort: number | null
  /** Stop a function's process after this long without a request. */
  idleMs: number
  /**
   * Memory limit of each function's whole process, Workers included: V8's heap limit, the OS's
   * RLIMIT_DATA (plus V8's reservations, sandbox.ts osLimits) and the resident memory watched by
   * function-process.ts.
   */
  memoryMb: number
  /** Wall-clock limit of one request; a request may use CPU_SHARE_OF_TIMEOUT of it in CPU time. */
  timeoutMs: number
  log: Logger
}

/**
 * Runs each deployed function in its own Deno process (sandbox.ts for its privileges): started at its
 * first request, stopped after idleMs without one, replaced when its version, its project's keys or
 * its secrets change, and started fresh after a crash or a hung request. The gateway asks
 * `acquire(project, row)` for each request (services/functions/gateway-route.ts).
 */
export class FunctionRuntime {
  /** The project listener's port, known once it listens: SUPABASE_URL points there. */
  platformPort: number | null = null
  /** The dashboard's own port (its API, its session cookie's site): denied to functions like the platform database. */
  dashboardPort: number | null = null
  /** CPU time one request may use (CPU_SHARE_OF_TIMEOUT); processes started later get a changed value (tests lower it). */
  cpuLimitMs: number
  private readonly processes: ProjectProcessManager<FunctionProcess>
  private rows = new Map<string, { row: FunctionRow | null; at: number }>()
  /** The internal ports each process was denied when it started. */
  private denied = new WeakMap<FunctionProcess, ReadonlySet<number>>()
  private sockets = 0
  private fingerprints = new WeakMap<FunctionRow, { project: GatewayProject; platformPort: number | null; value: string }>()
  /** npm:@supabase/supabase-js and the like, downloaded once for every project (shared-npm-cache.ts). */
  readonly sharedNpm: SharedNpmCache

  constructor(private readonly options: FunctionRuntimeOptions) {
    this.sharedNpm = new SharedNpmCache(options.dataDir, options.log)
    this.cpuLimitMs = Math.max(1, Math.round(options.timeoutMs * CPU_SHARE_OF_TIMEOUT))
    // Code deployed by an earlier version sits in directories others could read once functions/ is traversable.
    for (const ref of listDirs(path.join(options.dataDir, 'functions'))) {
      try {
        protectFunctionCode(options.dataDir, ref)
      } catch (error) {
        options.log.warn({ ref, err: error }, 'could not restrict the function code directory')
      }
    }
    // A crashed or hung process is discarded by the gateway (gateway-route.ts); the next request starts a new one.
    this.processes = new ProjectProcessManager<FunctionProcess>({
      what: 'edge function',
      idleMs: options.idleMs,
      log: options.log,
      busy: (process) => process.active > 0,
      alive: (process) => !process.hasExited,
      lastUsedOf: (process) => process.lastUsed,
    })
  }

  get timeoutMs(): number {
    return this.options.timeoutMs
  }

  /** The function's record, from memory when recently read. */
  async find(ref: string, slug: string): Promise<FunctionRow | null> {
    const key = `${ref}/${slug}`
    const known = this.rows.get(key)
    if (known && Date.now() - known.at < ROW_TTL_MS) return known.row
    const row = await findFunction(this.options.db, ref, slug)
    this.rows.set(key, { row, at: Date.now() })
    return row
  }

  /** The function's process for this version, started (and waited for) when none serves it. */
  acquire(project: GatewayProject, row: FunctionRow): Promise<FunctionProcess> {
    const key = `${project.ref}/${row.slug}`
    const fingerprint = this.fingerprintOf(project, row)
    return this.processes.acquire(key, fingerprint, () => this.start(project, row, key, fingerprint))
  }

  /**
   * What a process was started with: a change of any of it starts a new one. Remembered per function record and
   * project facts (both replaced, never changed, when they change), so a warm invoke does not rebuild it.
   */
  private fingerprintOf(project: GatewayProject, row: FunctionRow): string {
    const known = this.fingerprints.get(row)
    if (known && known.project === project && known.platformPort === this.platformPort) return known.value
    const value = JSON.stringify([row.version, project.port, project.jwtSecret, project.anonKey, project.serviceRoleKey, project.authenticatorUri, this.platformPort])
    this.fingerprints.set(row, { project, platformPort: this.platformPort, value })
    return value
  }

  /** Stops a process that crashed, hung or is outdated (if it is still the one serving its function). */
  discard(process: FunctionProcess): Promise<void> {
    return this.processes.discard(process.key, process)
  }

  /** A deploy or delete: the record is read again and the next request runs the new code. */
  async functionChanged(ref: string, slug: string): Promise<void> {
    const key = `${ref}/${slug}`
    this.rows.delete(key)
    await this.processes.stop(key)
  }

  /** Pause, delete, changed secrets: every function of the project stops; the next request starts it anew. */
  async stopProject(ref: string): Promise<void> {
    for (const key of [...this.rows.keys()]) if (key.startsWith(`${ref}/`)) this.rows.delete(key)
    await this.processes.stopWhere((key) => key.startsWith(`${ref}/`))
  }

  /**
   * A deleted project: its processes stop, then its run directory, module cache and OS user go (its
   * code directory goes with the project's other files, http/routes/project-removal.ts).
   */
  async forgetProject(ref: string): Promise<void> {
    await this.stopProject(ref)
    removeProjectFiles(this.options.dataDir, ref)
  }

  /**
   * A project's facts changed (created, upgraded to a new port...): processes of other projects
   * started before its port was known restart on their next request, with that port denied too.
   */
  async projectPortKnown(ref: string, port: number): Promise<void> {
    const outdated = this.processes.running().filter(([key, process]) => !key.startsWith(`${ref}/`) && !this.denied.get(process)?.has(port))
    await Promise.all(outdated.map(([, process]) => this.discard(process)))
  }

  /** Is a process running for the function? For tests and the benchmark. */
  processOf(ref: string, slug: string): FunctionProcess | null {
    return this.processes.peek(`${ref}/${slug}`)
  }

  async stopAll(): Promise<void> {
    await this.processes.stopAll()
    await this.sharedNpm.stop()
  }

  private async start(project: GatewayProject, row: FunctionRow, key: string, fingerprint: string): Promise<FunctionProcess> {
    const { db, dataDir } = this.options
    const { user, dirs } = prepareProjectDirs(dataDir, project.ref, BOOTSTRAP_SOURCE)
    // The installation's npm packages, before the project's Deno makes a cache of its own (downloaded once, on the
    // first function start of the installation).
    this.sharedNpm.warmInBackground()
    this.sharedNpm.seed(dirs.denoDir, project.ref, user)
    // Both reads at once: a cold start waits for them.
    const [secrets, { rows }] = await Promise.all([
      openSecrets(db, this.options.secrets, project.ref),
      db.query<{ port: number }>('SELECT port FROM projects WHERE ref <> $1', [project.ref]),
    ])
    if (secrets.ignored.length) this.options.log.warn({ ref: project.ref, names: secrets.ignored }, 'stored function secrets with refused names are not passed to the function')
    const internalPorts = [
      ...rows.map((r) => r.port),
      ...(this.options.platformDbPort ? [this.options.platformDbPort] : []),
      ...(this.dashboardPort ? [this.dashboardPort] : []),
    ]
    if (this.platformPort === null) throw new Error('The platform is not listening yet')
    const env: Record<string, string> = {
      // Already without the refused names (openSecrets); processEnv() filters once more.
      ...secrets.values,
      SUPABASE_URL: `http://localhost:${this.platformPort}/projects/${project.ref}`,
      SUPABASE_ANON_KEY: project.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: project.serviceRoleKey,
      // Least privilege (README "Edge functions"): the role PostgREST logs in as, which can act as
      // anon, authenticated or service_role (SET ROLE), as the service key already allows; not `postgres`.
      SUPABASE_DB_URL: project.authenticatorUri.replace('@127.0.0.1:', '@localhost:'),
    }
    const dir = versionDir(dataDir, row)
    // Before anything runs: an .npmrc that moves the npm registry would route downloads around the deny list.
    checkNpmrc(dir)
    const log = this.options.log.child({ ref: project.ref, function: row.slug, version: row.version })
    const process = new FunctionProcess(
      key,
      fingerprint,
      {
        versionDir: dir,
        entrypoint: row.entrypoint_path,
        importMap: importMapFor(dir, row, dirs),
        socketPath: path.join(dirs.runDir, `${++this.sockets}.sock`),
        dirs,
        env,
        deniedNet: deniedNet(internalPorts),
        memoryMb: this.options.memoryMb,
        cpuLimitMs: this.cpuLimitMs,
      },
      user,
      log,
    )
    this.denied.set(process, new Set(internalPorts))
    const started = Date.now()
    try {
      await process.ready(AbortSignal.timeout(START_TIMEOUT_MS))
    } catch (error) {
      await process.stop()
      throw error
    }
    log.info({ ms: Date.now() - started, pid: process.pid }, 'edge function started')
    return process
  }
}

function listDirs(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && /^[a-z]{20}$/.test(entry.name)).map((entry) => entry.name)
  } catch {
    return []
  }
}

/**
 * The import map a version runs with: its own, or, where its code imports deno.land's std/http/server.ts, its own
 * merged with that module mapped to the stand-in (std-http.ts), written beside the bootstrap.
 */
function importMapFor(versionDir: string, row: FunctionRow, dirs: FunctionDirs): string | null {
  const own = row.import_map_path ? path.join(versionDir, row.import_map_path) : null
  const std = stdHttpImports(versionDir)
  if (std.length === 0) return own
  let merged: string
  try {
    merged = JSON.stringify(mergedImportMap(own, dirs.stdHttpShim, std))
  } catch {
    // Its own map cannot be read: Deno says why when it starts with it.
    return own
  }
  const file = path.join(dirs.runDir, `import-map-${row.slug}-${row.version}.json`)
  writePlatformFile(file, merged)
  return file
}
