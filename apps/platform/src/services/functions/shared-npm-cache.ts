import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { RunAs } from '../../control/os-user.js'
import { denoBinary } from './deno.js'

const run = promisify(execFile)

/** What the installation's cache holds: the import nearly every function has (issue 32: 558 ms cold without it). */
export const SHARED_NPM_SPECIFIERS = ['npm:@supabase/supabase-js@2']

/** Longest a download of the shared packages may take before it is given up (retried at the next platform start). */
const WARM_TIMEOUT_MS = 180_000

/** The platform's own environment variables that say how to reach the npm registry (its operator's, never a tenant's). */
const REGISTRY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NPM_CONFIG_REGISTRY']

/**
 * npm packages downloaded once per installation and given to each new project's module cache (DENO_DIR) as hard
 * links, so that a project's first `npm:@supabase/supabase-js` import downloads nothing.
 *
 * Why not one DENO_DIR for all projects: whatever a project's Deno writes into a shared cache, every other project
 * would load (a package's file changed in place poisons them all). Here:
 * - The shared tree (`<data dir>/deno-shared/current/npm`) is downloaded by the platform itself (`deno cache`, as
 *   the platform's user, from the registry its operator configured), then made read-only: files 0444 (directories
 *   0755), owned by the platform. A function's OS user can neither write those files nor chmod them.
 * - A project gets the tree once, before its Deno ever ran with an npm cache: it is built beside the project's
 *   DENO_DIR in a directory only the platform can reach (links to the shared files, directories given to the
 *   function user), then renamed into place as `<DENO_DIR>/npm`. Nothing walks or writes a path inside the
 *   project's directory, where a symlink could send a privileged write elsewhere; the rename does not follow one.
 * - What Deno writes later stays the project's: measured on Deno 2.9.6, a newer packument replaces its
 *   registry.json by a rename (the project's link is replaced, the shared file untouched) and another version of a
 *   package goes in a directory of its own.
 * A project whose Deno already made its own npm cache keeps it as it is.
 */
export class SharedNpmCache {
  private readonly root: string
  private warming: Promise<void> | null = null
  /** Ends a download still going when the platform stops (stop). */
  private readonly stopping = new AbortController()

  constructor(
    dataDir: string,
    private readonly log: { info(details: object, message: string): void; warn(details: object, message: string): void },
  ) {
    this.root = path.join(dataDir, 'deno-shared')
  }

  private get current(): string {
    return path.join(this.root, 'current')
  }

  /** Whether the shared tree is complete on disk (its marker is written last, before the rename that publishes it). */
  get ready(): boolean {
    return fs.existsSync(path.join(this.current, '.ready'))
  }

  /** Downloads the shared packages in the background, once per process, unless they are on disk already. */
  warmInBackground(): void {
    if (this.ready || this.warming) return
    this.warming = this.warm().catch((error: unknown) => {
      if (this.stopping.signal.aborted) return
      this.log.warn({ err: error }, 'functions: the npm packages shared by all projects could not be downloaded; each project downloads its own')
    })
  }

  /** Settles when the background download (if any) is over: for tests. */
  async settled(): Promise<void> {
    await this.warming
  }

  /** The platform stops: a download still going is ended (the next start downloads again). */
  async stop(): Promise<void> {
    this.stopping.abort()
    await this.warming
  }

  private async warm(): Promise<void> {
    fs.mkdirSync(this.root, { recursive: true, mode: 0o755 })
    // What a platform stopped half-way through a download left.
    for (const name of fs.readdirSync(this.root)) if (name.startsWith('building-')) fs.rmSync(path.join(this.root, name), { recursive: true, force: true })
    const building = path.join(this.root, `building-${process.pid}-${Date.now()}`)
    fs.mkdirSync(building, { mode: 0o700 })
    try {
      const home = path.join(building, 'home')
      fs.mkdirSync(home)
      const env: Record<string, string> = {
        PATH: '/usr/bin:/bin',
        HOME: home,
        DENO_DIR: path.join(building, 'deno'),
        DENO_NO_UPDATE_CHECK: '1',
        DENO_NO_PACKAGE_JSON: '1',
        DENO_TLS_CA_STORE: 'mozilla,system',
        NO_COLOR: '1',
      }
      for (const name of REGISTRY_ENV) if (process.env[name]) env[name] = process.env[name]!
      await run(denoBinary(), ['cache', '--no-config', '--no-lock', '--node-modules-dir=none', ...SHARED_NPM_SPECIFIERS], {
        cwd: home,
        env,
        timeout: WARM_TIMEOUT_MS,
        signal: this.stopping.signal,
      })
      const npm = path.join(building, 'deno', 'npm')
      if (!fs.existsSync(npm)) throw new Error('deno cache left no npm directory')
      const tree = path.join(building, 'tree')
      fs.mkdirSync(tree)
      fs.renameSync(npm, path.join(tree, 'npm'))
      fs.rmSync(path.join(building, 'deno'), { recursive: true, force: true })
      fs.rmSync(home, { recursive: true, force: true })
      fs.writeFileSync(path.join(tree, '.ready'), `${SHARED_NPM_SPECIFIERS.join('\n')}\n`)
      readOnly(tree)
      fs.renameSync(tree, this.current)
      this.log.info({ specifiers: SHARED_NPM_SPECIFIERS }, 'functions: npm packages shared by all projects are ready')
    } finally {
      fs.rmSync(building, { recursive: true, force: true })
    }
  }

  /**
   * Gives a project's module cache the shared packages, when it has no npm cache of its own yet. Best effort: a
   * failure is logged and the function downloads what it imports, as without the shared cache.
   */
  seed(denoDir: string, ref: string, owner: RunAs): void {
    if (!this.ready) return
    const target = path.join(denoDir, 'npm')
    if (fs.lstatSync(target, { throwIfNoEntry: false })) return
    // Beside the project's DENO_DIR, in <data dir>/deno (the platform's, 0711: no function user can list or write it).
    const staging = path.join(path.dirname(denoDir), `.npm-${ref}-${process.pid}-${Date.now()}`)
    try {
      fs.mkdirSync(staging, { mode: 0o700 })
      linkTree(path.join(this.current, 'npm'), staging, owner)
      fs.chmodSync(staging, 0o755)
      if (owner.switched) fs.chownSync(staging, owner.uid, owner.gid)
      fs.renameSync(staging, target)
    } catch (error) {
      this.log.warn({ err: error, ref }, 'functions: the shared npm packages could not be given to the project')
    } finally {
      fs.rmSync(staging, { recursive: true, force: true })
    }
  }
}

/**
 * Files 0444 under `dir` (the platform's own tree). Directories stay 0755: writable by the platform's user only
 * (a function user is another user), and removable with the data directory by an unprivileged platform.
 */
function readOnly(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) readOnly(full)
    else if (entry.isFile()) fs.chmodSync(full, 0o444)
  }
  fs.chmodSync(dir, 0o755)
}

/**
 * The shared tree as the project's: its directories made anew and given to the function user (Deno adds versions
 * and packuments there), its files hard links to the shared, read-only ones (or copies where a link is refused).
 */
function linkTree(from: string, to: string, owner: RunAs): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { mode: 0o755 })
      linkTree(source, target, owner)
      if (owner.switched) fs.chownSync(target, owner.uid, owner.gid)
    } else if (entry.isFile()) {
      try {
        fs.linkSync(source, target)
      } catch {
        fs.copyFileSync(source, target)
        fs.chmodSync(target, 0o444)
      }
    }
  }
}
