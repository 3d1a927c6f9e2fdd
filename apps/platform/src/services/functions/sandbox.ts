import fs from 'node:fs'
import path from 'node:path'
import { functionOsUser, osUser, removeOsUser, type RunAs } from '../../control/os-user.js'

/**
 * Least privilege for one function's Deno process: which flags, which environment, which OS user
 * and which directories. Measured on Deno 2.9.6 (README "Edge functions"):
 * - `--deny-net` takes IPv4 CIDRs, with or without a port (`127.0.0.0/8:5432`), and IPv6 hosts in
 *   brackets (`[::1]:5432`), but no IPv6 CIDR. fetch() and Deno.connect() check the host as written
 *   and, after resolving it, each address: `localhost:5432` is caught by `127.0.0.0/8:5432`.
 * - Deny wins over `--allow-net`. So loopback cannot be denied whole while the platform's own HTTP
 *   port (SUPABASE_URL) and the project's Postgres port (SUPABASE_DB_URL) stay open: instead every
 *   internal port the platform knows is denied on all of 127/8 and ::1, and private networks whole.
 */

/** Private, link-local, carrier-grade NAT and "this host" networks: nothing of ours is a public service. */
const PRIVATE_NETWORKS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '0.0.0.0/8', '[::]']

/** What `--deny-net` gets: private networks, and each internal port on every loopback address. */
export function deniedNet(internalPorts: number[]): string[] {
  const ports = [...new Set(internalPorts)].filter((port) => Number.isInteger(port) && port > 0).sort((a, b) => a - b)
  return [...PRIVATE_NETWORKS, ...ports.flatMap((port) => [`127.0.0.0/8:${port}`, `[::1]:${port}`])]
}

/** OS user of a project's functions when the platform runs as root: not the Postgres server's user. */

export interface FunctionDirs {
  /** Holds the Unix sockets and the bootstrap module; 0700, the function user's. */
  runDir: string
  /** DENO_DIR and HOME: the project's npm and remote module cache; 0700, the function user's. */
  denoDir: string
  bootstrap: string
}

/**
 * Prepares the project's directories for its function user: its code directory readable by the
 * user's group only (files stay the platform's: the function cannot change its own code), its run
 * directory and module cache its own. Parents stay traversable (0711), never listable.
 */
export function prepareProjectDirs(dataDir: string, ref: string, bootstrapSource: string): { user: RunAs; dirs: FunctionDirs } {
  const user = osUser(functionOsUser(ref))
  protectFunctionCode(dataDir, ref, user)
  const runDir = path.join(dataDir, 'run', `fn-${ref}`)
  const denoDir = path.join(dataDir, 'deno', ref)
  for (const parent of [path.dirname(runDir), path.dirname(denoDir)]) {
    fs.mkdirSync(parent, { recursive: true })
    fs.chmodSync(parent, 0o711)
  }
  for (const dir of [runDir, denoDir]) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    fs.chmodSync(dir, 0o700)
    if (user.switched) fs.chownSync(dir, user.uid, user.gid)
  }
  const bootstrap = path.join(runDir, 'bootstrap.mjs')
  writeBootstrap(bootstrap, bootstrapSource)
  return { user, dirs: { runDir, denoDir, bootstrap } }
}

/**
 * The platform's file, not the function user's (it owns the directory, so the file is checked at every
 * start and replaced when it differs). Replaced by a rename: a process of another function starting
 * at the same moment never finds it missing or half written.
 */
function writeBootstrap(file: string, source: string): void {
  try {
    const stat = fs.lstatSync(file)
    if (stat.isFile() && stat.uid === (process.getuid?.() ?? stat.uid) && fs.readFileSync(file, 'utf8') === source) return
  } catch {
    // Not there yet.
  }
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
  fs.writeFileSync(temporary, source, { mode: 0o644 })
  fs.renameSync(temporary, file)
}

/**
 * functions/<ref>: owned by the platform, group = the function user's group, 0750: the project's
 * functions read their code, other projects' function users cannot even enter. Called at deploy too,
 * so code is never readable by others between a deploy and the first request.
 */
export function protectFunctionCode(dataDir: string, ref: string, user: RunAs = osUser(functionOsUser(ref))): void {
  const top = path.join(dataDir, 'functions')
  const dir = path.join(top, ref)
  fs.mkdirSync(dir, { recursive: true })
  fs.chmodSync(top, 0o711)
  if (user.switched) {
    fs.chownSync(dir, process.getuid?.() ?? 0, user.gid)
    fs.chmodSync(dir, 0o750)
  } else {
    fs.chmodSync(dir, 0o700)
  }
}

/** What prepareProjectDirs made for a project, and its OS user: for a deleted project. */
export function removeProjectFiles(dataDir: string, ref: string): void {
  fs.rmSync(path.join(dataDir, 'run', `fn-${ref}`), { recursive: true, force: true })
  fs.rmSync(path.join(dataDir, 'deno', ref), { recursive: true, force: true })
  removeOsUser(functionOsUser(ref))
}

export interface LaunchInput {
  versionDir: string
  entrypoint: string
  importMap: string | null
  socketPath: string
  dirs: FunctionDirs
  env: Record<string, string>
  deniedNet: string[]
  memoryMb: number
}

/** The `deno run` arguments: everything not granted here is refused, and never prompted for. */
export function denoArgs(input: LaunchInput): string[] {
  const configFile = ['deno.json', 'deno.jsonc'].map((name) => path.join(input.versionDir, name)).find((file) => fs.existsSync(file))
  return [
    'run',
    '--no-prompt',
    configFile ? `--config=${configFile}` : '--no-config',
    '--node-modules-dir=none',
    '--no-lock',
    // request.signal aborts when the client goes away, not after every answer (and no warning per request).
    '--unstable-no-legacy-abort',
    ...(input.importMap ? [`--import-map=${input.importMap}`] : []),
    '--allow-net',
    `--deny-net=${input.deniedNet.join(',')}`,
    `--allow-env=${Object.keys(input.env).join(',')}`,
    // Its own code, our bootstrap, its module cache (npm packages read their own files), its socket.
    `--allow-read=${[input.versionDir, input.dirs.bootstrap, input.dirs.denoDir, input.socketPath].join(',')}`,
    // Deno.serve on a Unix socket creates the socket file: the only write there is.
    `--allow-write=${input.socketPath}`,
    `--v8-flags=--max-old-space-size=${input.memoryMb}`,
    input.dirs.bootstrap,
    input.socketPath,
    `file://${path.join(input.versionDir, input.entrypoint)}`,
  ]
}

/** Set by the platform for Deno itself: a secret of the same name is not passed on. */
export const RESERVED_ENV = new Set(['PATH', 'HOME', 'NO_COLOR'])
export const isReservedEnv = (name: string) => RESERVED_ENV.has(name) || name.startsWith('DENO_')

/** The whole environment of the process: the platform's own never reaches it. */
export function processEnv(input: LaunchInput): Record<string, string> {
  return {
    ...input.env,
    PATH: '/usr/bin:/bin',
    HOME: input.dirs.denoDir,
    DENO_DIR: input.dirs.denoDir,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    // A package.json above the data directory (the repository's) must not change how imports resolve.
    DENO_NO_PACKAGE_JSON: '1',
    // The operating system's CAs too: npm and HTTPS through a corporate proxy or a private registry mirror.
    DENO_TLS_CA_STORE: 'mozilla,system',
  }
}
