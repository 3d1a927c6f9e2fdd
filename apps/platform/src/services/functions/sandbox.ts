import fs from 'node:fs'
import path from 'node:path'
import { refusedSecretName } from '@stratum/contracts'
import { functionOsUser, osUser, removeOsUser, type RunAs } from '../../control/os-user.js'
import { PRIVATE_IPV4_NETWORKS } from '../../private-networks.js'
import { STD_HTTP_SHIM_SOURCE } from './std-http.js'

/**
 * Least privilege for one function's Deno process: which flags, which environment, which OS limits,
 * which OS user and which directories. Measured on Deno 2.9.6 (README "Edge functions"):
 * - `--deny-net` takes IPv4 CIDRs, with or without a port (`127.0.0.0/8:5432`), and IPv6 hosts in
 *   brackets (`[::1]:5432`), but no IPv6 CIDR. fetch() and Deno.connect() check the host as written
 *   and, after resolving it, each address: `localhost:5432` is caught by `127.0.0.0/8:5432`.
 * - Deny wins over `--allow-net`. So loopback cannot be denied whole while the platform's own HTTP
 *   port (SUPABASE_URL) and the project's Postgres port (SUPABASE_DB_URL) stay open: instead every
 *   internal port the platform knows is denied on all of 127/8 and ::1, and private networks whole.
 * - Module loading does not consult `--deny-net` at all. Remote `https:` imports are checked against
 *   `--allow-import`/`--deny-import` (every redirect too): the public module hosts only, with the same
 *   deny list. npm and JSR downloads consult neither: they go wherever the registry settings say
 *   (NPM_CONFIG_REGISTRY, JSR_URL, HTTP(S)_PROXY in the environment, `registry=` lines of an `.npmrc`
 *   beside deno.json or in HOME), and a registry's answer names the URL of each tarball, so a custom
 *   registry can send the download to any host and port (a probe on a denied loopback port saw the
 *   tarball request). Hence: those variables are refused as secrets and never set, HOME is an empty
 *   directory of the platform's, and a function whose `.npmrc` changes the registry does not start.
 * - Memory: V8 reserves address space far beyond what it uses (about 18 GB at rest, a 32 GB cage at
 *   start): RLIMIT_AS cannot tell them apart. RLIMIT_DATA counts writable private mappings only; a
 *   function at rest has about 560 MiB of them (577 MiB while it downloads its npm packages), 512 MiB
 *   of which is V8's code range, one per isolate (each Worker adds about 530 MiB). See osLimits().
 */

/** Private, link-local, carrier-grade NAT and "this host" networks (private-networks.ts): nothing of ours is a public service. */
const PRIVATE_NETWORKS = [...PRIVATE_IPV4_NETWORKS.map(([network, prefix]) => `${network}/${prefix}`), '[::]']

/** What `--deny-net` gets: private networks, and each internal port on every loopback address. */
export function deniedNet(internalPorts: number[]): string[] {
  const ports = [...new Set(internalPorts)].filter((port) => Number.isInteger(port) && port > 0).sort((a, b) => a - b)
  return [...PRIVATE_NETWORKS, ...ports.flatMap((port) => [`127.0.0.0/8:${port}`, `[::1]:${port}`])]
}

/** OS user of a project's functions when the platform runs as root: not the Postgres server's user. */

export interface FunctionDirs {
  /** Holds the Unix sockets and the bootstrap module; 0700, the function user's. */
  runDir: string
  /** DENO_DIR: the project's npm and remote module cache; 0700, the function user's. */
  denoDir: string
  /** HOME: an empty directory of the platform's, shared by every function (no `~/.npmrc` to read). */
  home: string
  bootstrap: string
  /** The std/http/server.ts stand-in (std-http.ts), beside the bootstrap. */
  stdHttpShim: string
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
  writePlatformFile(bootstrap, bootstrapSource)
  const stdHttpShim = path.join(runDir, 'std-http-server.mjs')
  writePlatformFile(stdHttpShim, STD_HTTP_SHIM_SOURCE)
  return { user, dirs: { runDir, denoDir, home: emptyHome(dataDir), bootstrap, stdHttpShim } }
}

/** run/fn-home: the platform's, 0555, and nothing in it (what was found there is removed). */
function emptyHome(dataDir: string): string {
  const home = path.join(dataDir, 'run', 'fn-home')
  const stat = fs.lstatSync(home, { throwIfNoEntry: false })
  if (!stat?.isDirectory() || stat.uid !== (process.getuid?.() ?? stat.uid) || fs.readdirSync(home).length > 0) {
    if (stat?.isDirectory()) fs.chmodSync(home, 0o700)
    fs.rmSync(home, { recursive: true, force: true })
    fs.mkdirSync(home)
  }
  fs.chmodSync(home, 0o555)
  return home
}

/**
 * The platform's file (the bootstrap, the std/http stand-in, a merged import map), not the function user's (it owns the directory, so the file is checked at every
 * start and replaced when it differs). Replaced by a rename: a process of another function starting
 * at the same moment never finds it missing or half written.
 */
export function writePlatformFile(file: string, source: string): void {
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
  /** What the function may read with Deno.env: its secrets (already filtered) and the SUPABASE_* values. */
  env: Record<string, string>
  deniedNet: string[]
  memoryMb: number
  /** CPU time a request may use (function-process.ts measures it). */
  cpuLimitMs: number
}

/**
 * Where `https:` modules may be imported from: Deno's own default list (2.9.6), written out so that
 * nothing in a function's configuration widens it. Checked on every redirect as well.
 */
export const IMPORT_HOSTS = ['deno.land:443', 'jsr.io:443', 'esm.sh:443', 'raw.esm.sh:443', 'cdn.jsdelivr.net:443', 'raw.githubusercontent.com:443', 'gist.githubusercontent.com:443']

/** The `deno run` arguments: everything not granted here is refused, and never prompted for. */
export function denoArgs(input: LaunchInput): string[] {
  const configFile = configFileOf(input.versionDir)
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
    // Module loading ignores --deny-net: remote imports get the same deny list through --deny-import.
    `--allow-import=${IMPORT_HOSTS.join(',')}`,
    `--deny-import=${input.deniedNet.join(',')}`,
    `--allow-env=${Object.keys(input.env).join(',')}`,
    // Its own code, our bootstrap, its module cache (npm packages read their own files), its socket.
    `--allow-read=${[input.versionDir, input.dirs.bootstrap, input.dirs.stdHttpShim, input.dirs.denoDir, input.socketPath].join(',')}`,
    // Deno.serve on a Unix socket creates the socket file: the only write there is.
    `--allow-write=${input.socketPath}`,
    `--v8-flags=--max-old-space-size=${input.memoryMb}`,
    input.dirs.bootstrap,
    input.socketPath,
    `file://${path.join(input.versionDir, input.entrypoint)}`,
  ]
}

const configFileOf = (versionDir: string): string | undefined =>
  ['deno.json', 'deno.jsonc'].map((name) => path.join(versionDir, name)).find((file) => fs.existsSync(file))

/** Set by the platform for the function's code: the only SUPABASE_ names a process gets. */
export const PLATFORM_ENV = new Set(['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_DB_URL'])

/**
 * May a stored secret of this name reach the process? Not when the API would refuse it today
 * (contracts refusedSecretName: loader, Deno, npm/JSR, Node, proxies, TLS, SUPABASE_, PATH/HOME):
 * one stored before a rule existed is ignored at launch.
 */
export const isLaunchableSecret = (name: string): boolean => refusedSecretName(name) === null

/**
 * The whole environment of the process, built from nothing: the platform's own never reaches it.
 * What Deno needs, fixed by the platform, then the function's secrets and SUPABASE_* values, less any
 * name the loader, Deno, its resolvers, Node compatibility or TLS would read.
 */
export function processEnv(input: LaunchInput): Record<string, string> {
  const granted = Object.entries(input.env).filter(([name]) => PLATFORM_ENV.has(name) || isLaunchableSecret(name))
  return {
    ...Object.fromEntries(granted),
    PATH: '/usr/bin:/bin',
    HOME: input.dirs.home,
    DENO_DIR: input.dirs.denoDir,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    // A package.json above the data directory (the repository's) must not change how imports resolve.
    DENO_NO_PACKAGE_JSON: '1',
    // The operating system's CAs too: npm and HTTPS through a TLS-inspecting gateway of the host's network.
    DENO_TLS_CA_STORE: 'mozilla,system',
  }
}

/**
 * Address space V8 and Deno reserve writable whatever the function does, allowed on top of the
 * memory limit in RLIMIT_DATA (measured on Deno 2.9.6, x86_64): 512 MiB code range of the main
 * isolate, about 50 MiB of thread stacks, allocator arenas and heap bookkeeping at rest, 65 MiB while
 * npm packages download, plus margin for heavier module graphs. A Worker needs another ~530 MiB (its
 * own code range), so Workers start only under a memory limit of about 320 MB or more: under the
 * default 256 MB `new Worker()` stops the process with the memory limit's message (Supabase does
 * not offer the Worker API at all). Whatever the allowance, function-process.ts stops a process whose
 * resident memory passes the limit itself: the allowance only bounds what a spike between two of its
 * readings can take.
 */
export const V8_RESERVATION_MB = 768

/** util-linux's prlimit: sets the limits on itself, then execs the command (the pid stays Deno's). */
export const PRLIMIT = '/usr/bin/prlimit'

/**
 * The launcher put before the Deno binary: the OS enforces the memory limit for the whole process,
 * Workers included (RLIMIT_DATA = limit + V8_RESERVATION_MB, soft = hard, so the function cannot raise
 * it), and a crash leaves no core file with the function's secrets in it. function-process.ts also
 * stops a process whose resident memory passes the limit itself. Off Linux: none (no prlimit).
 */
export function osLimits(memoryMb: number): string[] {
  if (process.platform !== 'linux') return []
  if (!fs.existsSync(PRLIMIT)) throw new Error(`${PRLIMIT} (util-linux) is needed to enforce the memory limit of edge functions`)
  const dataBytes = (memoryMb + V8_RESERVATION_MB) * 1024 * 1024
  return [PRLIMIT, `--data=${dataBytes}`, '--core=0', '--']
}

const NPM_REGISTRY = /^https:\/\/registry\.npmjs\.org\/?$/
/** Keys of an .npmrc that choose where npm downloads go (npm's proxy settings too, whether or not Deno reads them). */
const NPMRC_ROUTING_KEY = /^(registry|@[^:]+:registry|proxy|https?-proxy|no-?proxy)$/i

/**
 * Refuses (with a message for the function's caller) an `.npmrc` that sends npm downloads anywhere
 * but the public registry: a registry answers with the URL of each tarball, so any other registry
 * could make Deno connect to a denied port, and Deno's npm client does not consult --deny-net.
 * Deno reads the `.npmrc` beside the deno.json it is given (and in HOME, which is empty); auth lines
 * for the public registry (`//registry.npmjs.org/:_authToken=...`) and other settings stay allowed.
 */
export function checkNpmrc(versionDir: string): void {
  const file = path.join(versionDir, '.npmrc')
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith(';')) continue
    const eq = line.indexOf('=')
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().replace(/^(["'])(.*)\1$/, '$2')
    const value = (eq < 0 ? '' : line.slice(eq + 1)).trim().replace(/^(["'])(.*)\1$/, '$2')
    // A key made of a variable (`${NAME}=...`) could become any of them.
    if (!NPMRC_ROUTING_KEY.test(key) && !key.includes('$')) continue
    if (/registry$/i.test(key) && NPM_REGISTRY.test(value)) continue
    throw new Error(
      `The function's .npmrc sets ${key}: npm packages are downloaded from https://registry.npmjs.org only ` +
        '(another registry chooses where its packages are downloaded from, which could reach the ports edge functions are denied)',
    )
  }
}
