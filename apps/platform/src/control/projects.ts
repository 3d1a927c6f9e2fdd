import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { ComputeSize, PostgresMajor, ProjectStatus } from '@stratum/contracts'
import type { FastifyBaseLogger } from 'fastify'
import { inTransaction, type Db, type Queryable } from '../store/db.js'
import { adminConnection, hardenPrivilegedRoles, withAdminClient, type AdminConnection } from './bootstrap-roles.js'
import { OPEN_ACCESS } from './hba.js'
import type { InstanceCredentials, InstanceDatabaseSettings, InstanceProvider, InstanceSpec } from './instance-provider.js'
import { convertLegacyRoleModel } from './legacy-role-model.js'
import { findFreePort } from './ports.js'
import { ProjectConnections } from './project-connections.js'
import { findProject, listAllProjects, newProjectRef, setProjectStatus, type ProjectRow } from './project-store.js'
import type { SecretBox } from './secret-box.js'

const newSecret = () => randomBytes(24).toString('hex')

/** Any fixed number: serializes port allocation between concurrent creates. */
const PORT_ALLOCATION_LOCK = 7_211_043

export interface CreateProjectInput {
  organizationId: string
  name: string
  major: PostgresMajor
  computeSize: ComputeSize
  dbPassword: string
  region: string
}

/** Statuses in which the instance should be running once the platform is up. */
const RUNNING_STATUSES: ProjectStatus[] = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'UNKNOWN', 'RESTARTING', 'RESIZING', 'RESTORING', 'UPGRADING']

/**
 * The project lifecycle as far as the foundation goes: create (COMING_UP -> ACTIVE_HEALTHY
 * through initdb, start and the role bootstrap) and reconcile at boot. Later lifecycle
 * operations (pause, restore, upgrade...) run as durable jobs on top of the same provider.
 */
export class ProjectService {
  private readonly inFlight = new Map<string, Promise<void>>()
  private monitor: NodeJS.Timeout | undefined
  private checking = false

  constructor(
    private readonly db: Db,
    private readonly provider: InstanceProvider,
    private readonly secrets: SecretBox,
    private readonly portStart: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.connections = new ProjectConnections(log)
  }

  /** Every pool the platform keeps to project databases (project-connections.ts): ended when a project stops. */
  readonly connections: ProjectConnections

  /** Records the project as COMING_UP and provisions it in the background. */
  async create(input: CreateProjectInput): Promise<ProjectRow> {
    const ref = await inTransaction(this.db, async (tx) => {
      const port = await this.allocatePort(tx)
      const ref = newProjectRef()
      const seal = (value: string) => this.secrets.seal(value)
      await tx.query(
        `INSERT INTO projects (ref, organization_id, name, status, region, postgres_major, compute_size, port,
           db_password_sealed, readonly_password_sealed, authenticator_password_sealed,
           admin_password_sealed, editor_password_sealed, role_model)
         VALUES ($1, $2, $3, 'COMING_UP', $4, $5, $6, $7, $8, $9, $10, $11, $12, ${CURRENT_ROLE_MODEL})`,
        [ref, input.organizationId, input.name, input.region, input.major, input.computeSize, port,
          seal(input.dbPassword), seal(newSecret()), seal(newSecret()), seal(newSecret()), seal(newSecret())],
      )
      return ref
    })
    this.provisionInBackground(ref)
    return (await findProject(this.db, ref))!
  }

  /**
   * Deletes a project: its instance and data directory, its other files (backups, storage,
   * functions: dataDirs), and its records. Refused
   * while an operation runs on it.
   */
  async remove(row: ProjectRow, dataDirs: string[]): Promise<void> {
    await this.settled(row.ref)
    const { rowCount } = await this.db.query(`SELECT 1 FROM operations WHERE project_ref = $1 AND status = 'running'`, [row.ref])
    if (rowCount) throw new Error('Another operation is already running on this project')
    await setProjectStatus(this.db, row.ref, 'REMOVED')
    await this.provider.destroy(ProjectService.spec(row))
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
    await this.db.query('DELETE FROM projects WHERE ref = $1', [row.ref])
    this.log.info({ ref: row.ref }, 'project deleted')
  }

  /**
   * A free port for a new instance, inside the caller's transaction (which holds the allocation
   * lock until it commits): not used by a project, nor by an upgrade's new instance.
   */
  async allocatePort(tx: Queryable): Promise<number> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PORT_ALLOCATION_LOCK])
    const { rows } = await tx.query<{ port: number }>(
      `SELECT port FROM projects UNION ALL
       SELECT (params->>'next_port')::int FROM operations WHERE status = 'running' AND params ? 'next_port'`,
    )
    return findFreePort(this.portStart, new Set(rows.map((r) => r.port)))
  }

  /** Resolves when the project's current provisioning (if any) has finished: for tests and benchmarks. */
  async settled(ref: string): Promise<void> {
    await this.inFlight.get(ref)
  }

  credentials(row: ProjectRow): InstanceCredentials {
    if (!row.admin_password_sealed || !row.editor_password_sealed) throw new Error(`Project ${row.ref} has no platform credentials yet`)
    return {
      adminPassword: this.secrets.open(row.admin_password_sealed),
      initialUserPassword: row.db_password_sealed ? this.secrets.open(row.db_password_sealed) : null,
      editorPassword: this.secrets.open(row.editor_password_sealed),
      readonlyPassword: this.secrets.open(row.readonly_password_sealed),
      authenticatorPassword: this.secrets.open(row.authenticator_password_sealed),
    }
  }

  /** How the platform itself connects to a project's database: as its own superuser. */
  adminConnection(row: ProjectRow, database = 'postgres'): AdminConnection {
    return adminConnection(row.port, this.credentials(row).adminPassword, database)
  }

  /**
   * Projects made by earlier versions get the platform's passwords (sealed) before anything
   * connects to them; their databases move over in ensureRoleModel once their instance runs.
   */
  async sealMissingCredentials(): Promise<void> {
    const { rows } = await this.db.query<{ ref: string }>('SELECT ref FROM projects WHERE admin_password_sealed IS NULL OR editor_password_sealed IS NULL')
    for (const { ref } of rows) {
      await this.db.query(
        `UPDATE projects SET admin_password_sealed = coalesce(admin_password_sealed, $2), editor_password_sealed = coalesce(editor_password_sealed, $3) WHERE ref = $1`,
        [ref, this.secrets.seal(newSecret()), this.secrets.seal(newSecret())],
      )
    }
  }

  /**
   * A running instance made by an earlier version (its `postgres` a superuser) moves to the role
   * model of bootstrap-roles.ts; idempotent and resumable (legacy-role-model.ts). Then the user's
   * password is forgotten.
   */
  async ensureRoleModel(ref: string): Promise<void> {
    const row = await findProject(this.db, ref)
    if (!row || row.role_model >= CURRENT_ROLE_MODEL) return
    const credentials = this.credentials(row)
    if (row.role_model < 1) {
      if (!credentials.initialUserPassword) throw new Error(`Project ${ref} lost its database password before its roles moved over`)
      await convertLegacyRoleModel({ port: row.port, userPassword: credentials.initialUserPassword, credentials })
      await this.db.query('UPDATE projects SET role_model = 1, db_password_sealed = NULL WHERE ref = $1', [ref])
      this.log.info({ ref }, 'project database moved to the non-superuser role model')
    }
    // Model 2: the superuser's search_path pinned, REPLICATION taken from every tenant role (idempotent).
    await withAdminClient(this.adminConnection(row), hardenPrivilegedRoles)
    await this.db.query('UPDATE projects SET role_model = $2 WHERE ref = $1', [ref, CURRENT_ROLE_MODEL])
  }

  /** Writes a project's server settings and access rules (read again from its row) and reloads its instance. */
  async reconfigure(ref: string): Promise<void> {
    const row = await findProject(this.db, ref)
    if (row) await this.provider.reconfigure(ProjectService.spec(row))
  }

  static spec(row: ProjectRow): InstanceSpec {
    return {
      ref: row.ref,
      major: row.postgres_major,
      port: row.port,
      computeSize: row.compute_size,
      database: databaseSettingsOf(row),
      walArchive: row.pitr_variant !== null && row.pitr_variant !== undefined,
    }
  }

  /** Boot: bring every instance to the state its status promises, and fix statuses that lie. */
  async reconcile(busyRefs: ReadonlySet<string> = new Set()): Promise<void> {
    // Projects with a running operation are the operation's to finish.
    const projects = (await listAllProjects(this.db)).filter((row) => !busyRefs.has(row.ref))
    // A few at a time: each start is a process spawn and a little I/O.
    const queue = [...projects]
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await this.reconcileOne(row)
    }
    await Promise.all(Array.from({ length: 4 }, worker))
  }

  /**
   * Supervises running instances: one that died (crash, OOM, someone's kill) is started again,
   * and the status says ACTIVE_UNHEALTHY, with the reason, while it cannot be.
   */
  startMonitor(intervalMs = 15_000): void {
    this.monitor ??= setInterval(() => void this.checkRunningInstances(), intervalMs)
    this.monitor.unref()
  }

  async checkRunningInstances(): Promise<void> {
    if (this.checking) return
    this.checking = true
    try {
      for (const row of await listAllProjects(this.db)) {
        if (row.status !== 'ACTIVE_HEALTHY' && row.status !== 'ACTIVE_UNHEALTHY') continue
        if (this.inFlight.has(row.ref)) continue
        const spec = ProjectService.spec(row)
        if (row.status === 'ACTIVE_HEALTHY' && (await this.provider.isRunning(spec))) continue
        // Read again: the list is a moment old, and an operation that began since (a pause, a restart) stops the
        // instance on purpose. Starting it under a pause's backup changed the files as they were archived.
        const current = await findProject(this.db, row.ref)
        if (!current || (current.status !== 'ACTIVE_HEALTHY' && current.status !== 'ACTIVE_UNHEALTHY') || this.inFlight.has(row.ref)) continue
        try {
          await this.provider.ensureRunning(spec)
          // A boot whose role-model move failed left the project ACTIVE_UNHEALTHY: it is retried here,
          // and the project is healthy only once its roles are the current model.
          await this.ensureRoleModel(row.ref)
          if (row.status !== 'ACTIVE_HEALTHY') await setProjectStatus(this.db, row.ref, 'ACTIVE_HEALTHY')
          this.log.warn({ ref: row.ref }, 'instance was down and has been started again')
        } catch (error) {
          await setProjectStatus(this.db, row.ref, 'ACTIVE_UNHEALTHY', { reason: (error as Error).message })
        }
      }
    } catch (error) {
      this.log.error({ err: error }, 'instance check failed')
    } finally {
      this.checking = false
    }
  }

  async stopAll(): Promise<void> {
    if (this.monitor) clearInterval(this.monitor)
    await Promise.allSettled(this.inFlight.values())
    await this.connections.close()
    await this.provider.stopAll()
  }

  private async reconcileOne(row: ProjectRow): Promise<void> {
    const spec = ProjectService.spec(row)
    try {
      if (row.status === 'COMING_UP') {
        this.provisionInBackground(row.ref)
        await this.settled(row.ref)
      } else if (RUNNING_STATUSES.includes(row.status)) {
        await this.provider.ensureRunning(spec)
        await this.ensureRoleModel(row.ref)
        await setProjectStatus(this.db, row.ref, 'ACTIVE_HEALTHY')
      } else if (row.status === 'INACTIVE' || row.status === 'GOING_DOWN' || row.status === 'PAUSING') {
        await this.provider.stop(spec)
        if (row.status !== 'INACTIVE') await setProjectStatus(this.db, row.ref, 'INACTIVE')
      }
      // PAUSE_FAILED, RESTORE_FAILED and INIT_FAILED keep their status and reason for the user to act on.
    } catch (error) {
      this.log.error({ err: error, ref: row.ref }, 'instance did not come back at boot')
      await setProjectStatus(this.db, row.ref, 'ACTIVE_UNHEALTHY', { reason: (error as Error).message })
    }
  }

  private provisionInBackground(ref: string): void {
    if (this.inFlight.has(ref)) return
    const task = this.provision(ref).finally(() => this.inFlight.delete(ref))
    this.inFlight.set(ref, task)
  }

  private async provision(ref: string): Promise<void> {
    const row = await findProject(this.db, ref)
    if (!row || row.status !== 'COMING_UP') return
    try {
      const { serverVersion } = await this.provider.provision(ProjectService.spec(row), this.credentials(row))
      // The password the user chose is theirs alone from now on: never stored, never shown.
      await this.db.query('UPDATE projects SET db_password_sealed = NULL WHERE ref = $1', [ref])
      await setProjectStatus(this.db, ref, 'ACTIVE_HEALTHY', { postgresVersion: serverVersion })
      this.log.info({ ref }, 'project is healthy')
    } catch (error) {
      this.log.error({ err: error, ref }, 'project provisioning failed')
      await setProjectStatus(this.db, ref, 'INIT_FAILED', { reason: (error as Error).message })
    }
  }
}

/** The owners' server settings and access rules as the instance provider takes them. */
/**
 * 0: `postgres` was the superuser (legacy-role-model.ts); 1: the platform's own superuser;
 * 2: its search_path pinned and no tenant role with REPLICATION (bootstrap-roles.ts hardenPrivilegedRoles).
 */
export const CURRENT_ROLE_MODEL = 2

export function databaseSettingsOf(row: ProjectRow): InstanceDatabaseSettings {
  return {
    config: row.postgres_config ?? {},
    access: {
      allowedCidrs: row.db_allowed_cidrs ?? OPEN_ACCESS.allowedCidrs,
      allowedCidrsV6: row.db_allowed_cidrs_v6 ?? OPEN_ACCESS.allowedCidrsV6,
      sslEnforced: row.ssl_enforced ?? false,
    },
    legacySuperuserLogin: row.role_model === 0,
  }
}
