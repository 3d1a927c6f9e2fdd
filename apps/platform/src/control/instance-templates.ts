import { createHash, randomBytes, randomInt } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { PostgresMajor } from '@stratum/contracts'
import { ADMIN_ROLE, adminConnection, bootstrapInstance } from './bootstrap-roles.js'
import { ensureServiceSchemas, SERVICE_SCHEMA_SOURCES } from './service-schemas.js'
import { chownTree, makeOwnedDir, osUser, type RunAs } from './os-user.js'
import { postgresBinaries } from './postgres-binaries.js'
import { isPortFree } from './ports.js'
import { platformHba, PostgresServer } from './postgres-server.js'
import { platformSourcePath } from '../platform-root.js'
import { copyCluster, ownedByTemplateUser, SpareCopies, STALE_AFTER_MS, type Template } from './template-spares.js'

/**
 * Pre-initialised clusters, one per Postgres major: initdb and the bootstrap (roles, grants, the auth and storage
 * schemas) run once into `<dir>/<major>-<recipe>/data`, and a new instance is a copy of it, started, whose
 * passwords are then set (bootstrapClusterRoles runs again with the project's own). Creating a project costs a
 * copy and a start instead of initdb plus a few hundred statements.
 *
 * The recipe is a hash of the sources that write a cluster's initial state and of the Postgres binary: change
 * either and the next creation builds a new template (the old one is removed an hour later). A template is built aside
 * and renamed when whole, so platforms sharing a template directory (tests) never copy half of one. Its superuser's
 * password stays in the template's directory (0600, the platform's user): every copy gets its own at once.
 */
export class InstanceTemplates {
  private readonly ready = new Map<PostgresMajor, Promise<Template>>()
  private readonly spares: SpareCopies

  constructor(
    private readonly dir: string,
    /** OS user of the template clusters while they are built (root runs each server as its own user). */
    private readonly ownerName: string,
    /** Ready-made copies kept per major (STRATUM_SPARE_INSTANCES): see SpareCopies. */
    spareCount = 1,
  ) {
    this.spares = new SpareCopies(path.join(dir, '.spares'), spareCount)
  }

  /**
   * Builds the major's template ahead of the first creation (at boot, in the background), and its spare copies; a
   * failure waits for that creation.
   */
  warm(major: PostgresMajor): void {
    this.template(major)
      .then((template) => this.spares.refill(template))
      .catch(() => {})
  }

  /** Waits for builds and copies under way (a platform stopping must not leave a template's server running). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.ready.values()])
    await this.spares.settle()
  }

  /**
   * Copies the major's template to `dataDir` (which must not exist), owned by `owner`. Returns the password the
   * copy's superuser has until the caller sets the instance's own.
   */
  async copyTo(major: PostgresMajor, dataDir: string, owner: RunAs): Promise<string> {
    const partial = `${dataDir}.partial`
    for (let attempt = 1; ; attempt++) {
      const template = await this.template(major)
      fs.rmSync(partial, { recursive: true, force: true })
      try {
        // A spare copy made after the last creation when there is one (a rename); the one being copied when a creation
        // follows another at once (it finishes sooner than a second copy racing it for the disk); else a copy now.
        const owner = osUser(this.ownerName)
        let taken = this.spares.take(template, partial, owner)
        if (!taken && (await this.spares.copied(template))) taken = this.spares.take(template, partial, owner)
        if (!taken) await copyCluster(template.dataDir, partial)
        this.spares.refill(template)
      } catch (error) {
        // The template went away under us (removed by hand, or as stale by another platform sharing the directory):
        // build it again, once.
        if (attempt > 1 || readTemplate(path.dirname(template.dataDir))) throw error
        this.ready.delete(major)
        continue
      }
      chownTree(partial, owner)
      fs.renameSync(partial, dataDir)
      return template.adminPassword
    }
  }

  private template(major: PostgresMajor): Promise<Template> {
    let ready = this.ready.get(major)
    if (!ready) {
      ready = this.openOrBuild(major)
      // A failed build is tried again by the next creation.
      ready.catch(() => this.ready.delete(major))
      this.ready.set(major, ready)
    }
    return ready
  }

  private async openOrBuild(major: PostgresMajor): Promise<Template> {
    const name = `${major}-${recipe(major)}`
    const home = path.join(this.dir, name)
    const owner = osUser(this.ownerName)
    const existing = readTemplate(home)
    if (existing && trusted(existing, owner)) return existing
    // Not ours any more: its OS user was deleted and the uid may since belong to a project's user, who could have
    // changed what every new project would copy. Built again.
    if (existing) {
      fs.rmSync(home, { recursive: true, force: true })
      this.spares.discard(name)
    }
    fs.mkdirSync(this.dir, { recursive: true })
    // The template's OS user goes through it to its own (0700) directory; nobody may list it.
    fs.chmodSync(this.dir, 0o711)
    const work = path.join(this.dir, `.building-${name}-${randomInt(1e9)}`)
    try {
      await build(work, major, owner)
      try {
        fs.renameSync(work, home)
      } catch {
        // Another platform finished the same template first: theirs is as good.
        if (!readTemplate(home)) throw new Error(`The template ${home} could not be written`)
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true })
    }
    removeStale(this.dir, major, name)
    return readTemplate(home)!
  }
}

function removeStale(dir: string, major: PostgresMajor, current: string): void {
  for (const other of fs.readdirSync(dir)) {
    const full = path.join(dir, other)
    // Also what a build killed half-way left (`.building-*`).
    if (!(other.startsWith(`${major}-`) || other.startsWith('.building-')) || other === current) continue
    if (Date.now() - fs.statSync(full).mtimeMs > STALE_AFTER_MS) fs.rmSync(full, { recursive: true, force: true })
  }
}

const PASSWORD_FILE = 'admin-password'

function readTemplate(home: string): Template | null {
  try {
    const adminPassword = fs.readFileSync(path.join(home, PASSWORD_FILE), 'utf8')
    const dataDir = path.join(home, 'data')
    return fs.existsSync(path.join(dataDir, 'PG_VERSION')) ? { name: path.basename(home), dataDir, adminPassword } : null
  } catch {
    return null
  }
}

/**
 * Every file of the template belongs to its OS user (or, not running as root, to us) and the password file to the
 * platform: nobody else could have written what new projects copy.
 */
function trusted(template: Template, owner: RunAs): boolean {
  const home = path.dirname(template.dataDir)
  if (fs.statSync(path.join(home, PASSWORD_FILE)).uid !== process.getuid?.()) return false
  return ownedByTemplateUser(template.dataDir, owner)
}

/** initdb, a start on a free loopback port, the bootstrap with throwaway passwords, a clean stop. */
async function build(work: string, major: PostgresMajor, owner: RunAs): Promise<void> {
  const server = new PostgresServer(work, major, owner.name)
  makeOwnedDir(work, owner)
  const adminPassword = randomBytes(32).toString('base64url')
  await server.init(ADMIN_ROLE, adminPassword)
  const port = await freeLoopbackPort()
  server.writeSettings({ port, listen_addresses: '127.0.0.1', unix_socket_directories: '' }, platformHba(false))
  await server.start()
  try {
    const connection = adminConnection(port, adminPassword)
    const throwaway = () => randomBytes(24).toString('base64url')
    const editorPassword = throwaway()
    // No password for `postgres`: each project sets the one its owner chose.
    await bootstrapInstance(connection, {
      adminPassword,
      initialUserPassword: null,
      editorPassword,
      readonlyPassword: throwaway(),
      authenticatorPassword: throwaway(),
    })
    await ensureServiceSchemas(connection, { adminPassword, editorPassword })
  } finally {
    await server.stop()
  }
  // What each instance writes for itself at its first start (settings, access rules, logs) is not the template's.
  for (const file of ['stratum.conf', 'pg_hba.conf', 'log', 'postmaster.opts']) fs.rmSync(path.join(server.dataDir, file), { recursive: true, force: true })
  fs.rmSync(server.logFile, { force: true })
  fs.writeFileSync(path.join(work, PASSWORD_FILE), adminPassword, { mode: 0o600 })
}

async function freeLoopbackPort(): Promise<number> {
  for (;;) {
    const port = 40_000 + randomInt(8_000)
    if (await isPortFree(port)) return port
  }
}

/** The sources whose statements make a new cluster's state (read from src/ whether the platform runs built or not). */
const RECIPE_SOURCES = [
  ['control', 'bootstrap-roles.ts'],
  ...SERVICE_SCHEMA_SOURCES,
  ['control', 'postgres-server.ts'],
  ['control', 'instance-templates.ts'],
]

function recipe(major: PostgresMajor): string {
  const hash = createHash('sha256')
  for (const source of RECIPE_SOURCES) hash.update(fs.readFileSync(platformSourcePath(...source)))
  const binary = fs.statSync(postgresBinaries(major).postgres)
  hash.update(`${postgresBinaries(major).postgres}:${binary.size}:${binary.mtimeMs}`)
  return hash.digest('hex').slice(0, 16)
}
