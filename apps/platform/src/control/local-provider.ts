import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import type pg from 'pg'
import * as tar from 'tar'
import { COMPUTE_SIZES } from '@stratum/contracts'
import { ADMIN_ROLE, adminConnection, bootstrapInstance, bootstrapTemplateCopy, canConnect, passwordRejected } from './bootstrap-roles.js'
import type { ArchiveSource, InstanceCredentials, InstanceProvider, InstanceSpec } from './instance-provider.js'
import { makeOwnedDir, projectOsUser, removeOsUser, writeOwnedFile, type RunAs } from './os-user.js'
import { buildHba, OPEN_ACCESS } from './hba.js'
import { computeDefaults, confValues } from './server-settings.js'
import { ensureInstanceTls, instanceTlsHosts } from './tls.js'
import { PostgresServer } from './postgres-server.js'
import type { InstanceTemplates } from './instance-templates.js'
import { ensureServiceSchemas } from './service-schemas.js'
import { renameDurably } from './branching/durable-copy.js'
import { copyRunningCluster } from './branching/online-copy.js'
import { archiveSettings, walArchiveDir } from './pitr/archive-paths.js'
import { bringBack, buildFromArchive, dropSetAside, restoreWalDir, setAside } from './pitr/local-archive.js'
import { VAULT_KEY_FILE } from '../services/vault/crypto-sql.js'
import type { InstanceKeyring } from '../services/vault/vault-keys.js'

export interface LocalProviderOptions {
  /** Instances live under <projectsDir>/<ref>. */
  projectsDir: string
  /** listen_addresses of every instance ('localhost' by default; '*' to reach them from other hosts). */
  listenAddresses: string
  /** The installation's CA directory (tls.ts); each instance gets a certificate from it. */
  tlsDir: string
  /** Host name clients use (STRATUM_DB_HOST): named in each instance's certificate. */
  dbHost: string
  /** The platform's data directory: each project's WAL archive is under its pitr/ (control/pitr/archive-paths.ts). */
  dataDir: string
  /** For crash tests only (STRATUM_OPERATION_STEP_DELAY_MS): a pause between start and bootstrap. */
  stepDelayMs?: number
  /** Pre-initialised clusters new instances are copied from (instance-templates.ts); without, each runs initdb and the bootstrap. */
  templates?: InstanceTemplates
  /** The projects' keys the platform keeps outside their databases (services/vault/vault-keys.ts); without, no Vault key file. */
  keyring?: InstanceKeyring
}

/** Most WAL any replication slot may hold back. */
const MAX_SLOT_WAL_KEEP_SIZE = '1GB'
/** Locks per connection of an upgrade's target server (Postgres's default is 64). */
const UPGRADE_MAX_LOCKS_PER_TRANSACTION = 1024
/** Beside a data directory copied from a template until the copy's superuser has its own password. */
const TEMPLATE_PASSWORD_FILE = 'template-password'

/** Runs each project as a Postgres server process on this machine, on its own port and data directory. */
export class LocalProvider implements InstanceProvider {
  readonly name = 'local'
  private readonly servers = new Map<string, PostgresServer>()

  constructor(private readonly options: LocalProviderOptions) {}

  async provision(spec: InstanceSpec, credentials: InstanceCredentials): Promise<{ serverVersion: string }> {
    const server = this.server(spec)
    const templatePassword = await this.initFromTemplate(server, credentials)
    this.applySettings(server, spec)
    await this.writeKeys(server, spec)
    await this.startOrExplain(server)
    if (this.options.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.stepDelayMs))
    if (templatePassword) return { serverVersion: await this.takeOverTemplate(server, spec.port, templatePassword, credentials) }
    const connection = adminConnection(spec.port, credentials.adminPassword)
    const serverVersion = await bootstrapInstance(connection, credentials)
    await ensureServiceSchemas(connection, credentials)
    return { serverVersion }
  }

  /**
   * A new cluster: a copy of the major's template when there are templates, else initdb. The copy's superuser still
   * has the template's password until takeOverTemplate: a file beside the data directory keeps it until then, so a
   * provisioning interrupted in between (a crash) finishes the same way when it is tried again.
   */
  private async initFromTemplate(server: PostgresServer, credentials: InstanceCredentials): Promise<string | null> {
    const pending = path.join(server.dir, TEMPLATE_PASSWORD_FILE)
    if (server.isInitialized()) return fs.existsSync(pending) ? fs.readFileSync(pending, 'utf8') : null
    if (!this.options.templates) {
      await server.init(ADMIN_ROLE, credentials.adminPassword)
      return null
    }
    makeOwnedDir(server.dir, server.owner)
    fs.rmSync(server.dataDir, { recursive: true, force: true })
    const copy = `${server.dataDir}.template`
    fs.rmSync(copy, { recursive: true, force: true })
    const templatePassword = await this.options.templates.copyTo(server.major, copy, server.owner)
    // Written by the platform (root-owned when root), 0600: the instance's own OS user cannot read it.
    fs.writeFileSync(`${pending}.partial`, templatePassword, { mode: 0o600 })
    fs.renameSync(`${pending}.partial`, pending)
    fs.renameSync(copy, server.dataDir)
    return templatePassword
  }

  /**
   * The copy's superuser gets its own password in place of the template's, and the bootstrap sets every other role's,
   * on one connection. A provisioning that stopped after the password changed (the template's is refused) goes on as
   * its own superuser.
   */
  private async takeOverTemplate(server: PostgresServer, port: number, templatePassword: string, credentials: InstanceCredentials): Promise<string> {
    const takeOver = (client: pg.Client) =>
      client.query(`ALTER ROLE ${client.escapeIdentifier(ADMIN_ROLE)} WITH PASSWORD ${client.escapeLiteral(credentials.adminPassword)}`)
    const serverVersion = await bootstrapTemplateCopy(adminConnection(port, templatePassword), credentials, takeOver).catch((error: unknown) => {
      if (!passwordRejected(error)) throw error
      return bootstrapTemplateCopy(adminConnection(port, credentials.adminPassword), credentials)
    })
    fs.rmSync(path.join(server.dir, TEMPLATE_PASSWORD_FILE), { force: true })
    return serverVersion
  }

  async ensureRunning(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    if (!server.isInitialized()) throw new Error(`Instance ${spec.ref} has no data directory at ${server.dataDir}`)
    this.applySettings(server, spec)
    await this.writeKeys(server, spec)
    await this.startOrExplain(server)
    if (spec.slot !== 'next') await this.options.keyring?.started(spec.ref, spec.port)
  }

  /**
   * The project's Vault key, written before each start to a file beside the data directory (not inside: no copy of
   * the data directory, a branch's clone, a base backup, a physical backup, carries it), 0600 and owned by the
   * instance's OS user, in its 0700 directory. Only the server process reads it, through a function of the platform's
   * superuser (services/vault/crypto-sql.ts); the tenant's roles cannot read server files.
   */
  private async writeKeys(server: PostgresServer, spec: InstanceSpec): Promise<void> {
    if (!this.options.keyring) return
    const key = await this.options.keyring.vaultKey(spec.ref)
    const file = path.join(server.dir, VAULT_KEY_FILE)
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
    if (current === `${key}\n`) return
    makeOwnedDir(server.dir, server.owner)
    // Written aside and renamed: the server never reads half a key.
    writeOwnedFile(`${file}.partial`, `${key}\n`, server.owner)
    fs.renameSync(`${file}.partial`, file)
  }

  async stop(spec: InstanceSpec): Promise<void> {
    await this.server(spec).stop()
  }

  isRunning(spec: InstanceSpec): Promise<boolean> {
    return this.server(spec).isRunning()
  }

  async check(spec: InstanceSpec, credentials: InstanceCredentials): Promise<boolean> {
    return canConnect(spec.port, credentials.adminPassword)
  }

  async snapshot(spec: InstanceSpec, file: string): Promise<void> {
    const server = this.server(spec)
    if (await server.isRunning()) throw new Error('A physical backup needs the instance stopped')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // Written aside and renamed: a half-written archive never looks like a backup.
    const partial = `${file}.partial`
    // Compressed by node's zlib on its thread pool at level 1, not by tar's synchronous gzip at level 6: that blocked
    // the event loop of every project for the whole archive (measured: the largest synchronous cost in the server
    // tests), and a data directory is mostly WAL segments and pages that level 1 already shrinks several times.
    await pipeline(tar.create({ cwd: server.dir, portable: true }, ['data']), zlib.createGzip({ level: 1 }), fs.createWriteStream(partial))
    fs.renameSync(partial, file)
  }

  async destroy(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    await server.stop()
    fs.rmSync(server.dir, { recursive: true, force: true })
    this.servers.delete(spec.ref)
    removeOsUser(projectOsUser(spec.ref))
  }

  async cloneRunning(source: InstanceSpec, sourceAdminPassword: string, target: InstanceSpec): Promise<{ method: 'reflink' | 'copy' }> {
    const server = this.server(target)
    if (server.isInitialized()) throw new Error(`Instance ${target.ref} already has data`)
    makeOwnedDir(server.dir, server.owner)
    // Made aside and renamed: a data directory that exists is always a whole copy.
    const partial = `${server.dataDir}.partial`
    fs.rmSync(partial, { recursive: true, force: true })
    // The copy's files are given to the target's OS user as they are copied (else its server would chown them at its start).
    const owner = server.owner.switched ? server.owner : undefined
    const copy = await copyRunningCluster(adminConnection(source.port, sourceAdminPassword), this.server(source).dataDir, partial, `branch ${target.ref}`, owner)
    // The copy is on disk by now; the rename is synced too, so a host crash leaves either no copy or a whole one.
    await renameDurably(partial, server.dataDir)
    return { method: copy.method }
  }

  async discardData(spec: InstanceSpec): Promise<void> {
    await this.server(spec).discardData()
  }

  async baseBackup(spec: InstanceSpec, adminPassword: string, dir: string): Promise<{ timeline: number; startWalFile: string }> {
    const partial = `${dir}.partial`
    fs.rmSync(partial, { recursive: true, force: true })
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 })
    const copy = await copyRunningCluster(adminConnection(spec.port, adminPassword), this.server(spec).dataDir, partial, `pitr base backup ${spec.ref}`)
    await renameDurably(partial, dir)
    return { timeline: copy.timeline, startWalFile: copy.startWalFile }
  }

  async buildFromArchive(spec: InstanceSpec, source: ArchiveSource): Promise<void> {
    const server = this.server(spec)
    if (server.isInitialized()) throw new Error(`Instance ${spec.ref} already has data`)
    makeOwnedDir(server.dir, server.owner)
    await buildFromArchive(server.dataDir, source.baseBackupDir, source.walDir, source.startWalFile, source.target)
  }

  async clearRecoveryFiles(spec: InstanceSpec): Promise<void> {
    fs.rmSync(restoreWalDir(this.server(spec).dataDir), { recursive: true, force: true })
  }

  async setAsideData(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    await server.stop()
    setAside(server.dataDir)
  }

  async bringBackSetAside(spec: InstanceSpec): Promise<boolean> {
    const server = this.server(spec)
    await server.stop()
    return bringBack(server.dataDir)
  }

  async dropSetAside(spec: InstanceSpec): Promise<void> {
    dropSetAside(this.server(spec).dataDir)
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.servers.values()].map((server) => server.stop()))
  }

  /** Where the live instance writes its jsonlog files (the log_directory set above). */
  postgresLogDir(ref: string): string {
    return path.join(this.instanceDir(ref), 'data', 'log')
  }

  instanceDir(ref: string, slot: 'live' | 'next' | 'previous' = 'live'): string {
    return path.join(this.options.projectsDir, slot === 'live' ? ref : `${ref}.${slot}`)
  }

  async promoteNext(ref: string): Promise<void> {
    const [live, next, previous] = [this.instanceDir(ref), this.instanceDir(ref, 'next'), this.instanceDir(ref, 'previous')]
    await this.stopDir(live)
    await this.stopDir(next)
    if (fs.existsSync(next)) {
      if (fs.existsSync(live)) fs.renameSync(live, previous)
      fs.renameSync(next, live)
    }
    this.forget(ref)
  }

  async demoteToPrevious(ref: string): Promise<void> {
    const [live, next, previous] = [this.instanceDir(ref), this.instanceDir(ref, 'next'), this.instanceDir(ref, 'previous')]
    if (!fs.existsSync(previous)) return
    await this.stopDir(live)
    fs.rmSync(next, { recursive: true, force: true })
    if (fs.existsSync(live)) fs.renameSync(live, next)
    fs.renameSync(previous, live)
    this.forget(ref)
  }

  async discardPrevious(ref: string): Promise<void> {
    await this.stopDir(this.instanceDir(ref, 'previous'))
    fs.rmSync(this.instanceDir(ref, 'previous'), { recursive: true, force: true })
  }

  async discardNext(ref: string): Promise<void> {
    await this.stopDir(this.instanceDir(ref, 'next'))
    fs.rmSync(this.instanceDir(ref, 'next'), { recursive: true, force: true })
    this.forget(ref)
  }

  liveMajor(ref: string): string | null {
    try {
      return fs.readFileSync(path.join(this.instanceDir(ref), 'data', 'PG_VERSION'), 'utf8').trim()
    } catch {
      return null
    }
  }

  /** Stops whatever server runs in a directory, whichever major it is. */
  private async stopDir(dir: string): Promise<void> {
    const major = (() => {
      try {
        return fs.readFileSync(path.join(dir, 'data', 'PG_VERSION'), 'utf8').trim()
      } catch {
        return null
      }
    })()
    const ref = path.basename(dir).split('.')[0]!
    if (major === '15' || major === '17') await new PostgresServer(dir, major, projectOsUser(ref)).stop()
  }

  async reconfigure(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    if (!server.isInitialized()) return
    this.applySettings(server, spec)
    await server.reload()
  }

  private forget(ref: string): void {
    this.servers.delete(ref)
    this.servers.delete(`${ref}.next`)
  }

  private server(spec: InstanceSpec): PostgresServer {
    const key = spec.slot === 'next' ? `${spec.ref}.next` : spec.ref
    let server = this.servers.get(key)
    if (!server || server.major !== spec.major) {
      server = new PostgresServer(this.instanceDir(spec.ref, spec.slot ?? 'live'), spec.major, projectOsUser(spec.ref))
      this.servers.set(key, server)
    }
    return server
  }

  private applySettings(server: PostgresServer, spec: InstanceSpec): void {
    const size = COMPUTE_SIZES[spec.computeSize]
    const owner = server.owner
    // TLS on every instance: `sslmode=require` works, and `verify-full` with the installation's CA.
    const tls = ensureInstanceTls({
      tlsDir: this.options.tlsDir,
      instanceDataDir: server.dataDir,
      hosts: instanceTlsHosts(this.options.dbHost),
      owner: owner.switched ? { uid: owner.uid, gid: owner.gid } : null,
    })
    const database = spec.database
    server.writeSettings(
      {
        // The owners' settings first: what the platform needs (port, TLS, logs) is written after them and wins.
        ...computeDefaults(size),
        ...confValues(database?.config ?? {}),
        ...tls,
        port: spec.port,
        listen_addresses: this.options.listenAddresses,
        unix_socket_directories: '',
        password_encryption: 'scram-sha-256',
        // The instance's log as JSON lines in data/log/, one file per start and per day; the platform's log
        // collector (observability/logs/collector.ts) tails them, so collecting costs queries nothing.
        logging_collector: 'on',
        log_destination: 'jsonlog',
        log_directory: 'log',
        log_filename: 'postgresql-%Y-%m-%d_%H%M%S.log',
        log_rotation_age: '1d',
        log_rotation_size: '100MB',
        log_timezone: 'UTC',
        ...this.archiving(spec, owner),
        // Realtime's Postgres changes read a logical change stream (services/realtime/changes/stream.ts).
        wal_level: 'logical',
        // No slot may pin WAL without bound (a full disk stops the instance); the platform's own slots are
        // temporary and short-lived (branching's online copy).
        max_slot_wal_keep_size: MAX_SLOT_WAL_KEEP_SIZE,
        // A major upgrade restores each database in one transaction, which holds a lock per object it creates: a
        // project with tens of thousands of functions would run out of the default 64 per connection. The new
        // server gets room for it while it is the upgrade's target (the live one is configured again after the switch).
        ...(spec.slot === 'next' ? { max_locks_per_transaction: UPGRADE_MAX_LOCKS_PER_TRANSACTION } : {}),
      },
      buildHba(database?.access ?? OPEN_ACCESS, { legacySuperuserLogin: database?.legacySuperuserLogin }),
    )
  }

  /** WAL archiving for the PITR add-on: the archive directory is the instance's own (0700). */
  private archiving(spec: InstanceSpec, owner: RunAs): Record<string, string | number> {
    if (!spec.walArchive || spec.slot === 'next') return {}
    const dir = walArchiveDir(this.options.dataDir, spec.ref)
    makeOwnedDir(path.dirname(dir), owner)
    makeOwnedDir(dir, owner)
    return archiveSettings(dir)
  }

  private async startOrExplain(server: PostgresServer): Promise<void> {
    try {
      await server.start()
    } catch (error) {
      const tail = server.logTail(5)
      throw new Error(`${(error as Error).message}${tail ? `\n${tail}` : ''}`)
    }
  }
}
