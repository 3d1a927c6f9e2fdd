import pg from 'pg'
import type { Logger } from 'pino'
import { ensureAuthSchema } from '../../control/auth-schema.js'
import { AUTH_ADMIN_ROLE, authAdminPassword, withAdminClient } from '../../control/bootstrap-roles.js'
import { findProject } from '../../control/project-store.js'
import type { ProjectService } from '../../control/projects.js'
import { inTransaction, type Db } from '../../store/db.js'

const POOL_SIZE = 3

/**
 * The auth service's connections to each project database, as supabase_auth_admin (owner of the
 * `auth` tables and nothing else). The first use per project and process makes sure the schema is in
 * place (as the platform's superuser, once); pools close when the project changes (port, pause) and
 * when idle.
 */
export class AuthDatabases {
  private pools = new Map<string, Promise<pg.Pool>>()

  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
    private readonly log: Logger,
  ) {}

  /** Runs fn in one transaction on the project's database. */
  async transaction<T>(ref: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(await this.pool(ref), fn)
  }

  async query<R extends pg.QueryResultRow>(ref: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return (await this.pool(ref)).query<R>(text, values)
  }

  /** Closes the project's pool: the next request reconnects (and re-reads its port). */
  async forget(ref: string): Promise<void> {
    const pool = this.pools.get(ref)
    if (!pool) return
    this.pools.delete(ref)
    await (await pool.catch(() => null))?.end().catch(() => {})
  }

  async stop(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((ref) => this.forget(ref)))
  }

  private pool(ref: string): Promise<pg.Pool> {
    let pool = this.pools.get(ref)
    if (!pool) {
      pool = this.open(ref)
      this.pools.set(ref, pool)
      pool.catch(() => this.pools.delete(ref))
    }
    return pool
  }

  private async open(ref: string): Promise<pg.Pool> {
    const row = await findProject(this.db, ref)
    if (!row) throw new Error(`No project ${ref}`)
    const adminPassword = this.projects.credentials(row).adminPassword
    await withAdminClient(this.projects.adminConnection(row), (client) => ensureAuthSchema(client, adminPassword))
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: row.port,
      user: AUTH_ADMIN_ROLE,
      password: authAdminPassword(adminPassword),
      database: 'postgres',
      max: POOL_SIZE,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: 'stratum-auth',
    })
    pool.on('error', (error) => this.log.warn({ err: error, ref }, 'auth: a project database connection failed'))
    return pool
  }
}
