import pg from 'pg'
import { ensureAuthSchema } from './schema.js'
import { AUTH_ADMIN_ROLE, authAdminPassword, withAdminClient } from '../../control/bootstrap-roles.js'
import { findProject } from '../../control/project-store.js'
import type { ProjectLogin } from '../../control/project-connections.js'
import type { ProjectService } from '../../control/projects.js'
import { inTransaction, type Db } from '../../store/db.js'

const POOL_SIZE = 3
const POOL_PURPOSE = 'auth'

/**
 * The auth service's connections to each project database, as supabase_auth_admin (owner of the
 * `auth` tables and nothing else). The first use per project and process makes sure the schema is in
 * place (as the platform's superuser, once); pools close when the project changes (port, pause) and
 * when idle.
 */
export class AuthDatabases {
  /** Each project's login, once this process has made sure of its auth schema (forgotten when the project changes). */
  private logins = new Map<string, Promise<ProjectLogin>>()

  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
  ) {}

  /** Runs fn in one transaction on the project's database. */
  async transaction<T>(ref: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(await this.pool(ref), fn)
  }

  async query<R extends pg.QueryResultRow>(ref: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return (await this.pool(ref)).query<R>(text, values)
  }

  /** The project changed: the next request reads its login again (port, schema); the pool stays while the login does. */
  recheck(ref: string): void {
    this.logins.delete(ref)
  }

  /** Closes the project's pool (it stopped): the next request reconnects. */
  async forget(ref: string): Promise<void> {
    this.recheck(ref)
    await this.projects.connections.forget(ref, POOL_PURPOSE)
  }

  async stop(): Promise<void> {
    await Promise.all([...this.logins.keys()].map((ref) => this.forget(ref)))
  }

  /** The project's pool, asked of the registry at each use: a pool it ended (the project stopped) is never reused. */
  private async pool(ref: string): Promise<pg.Pool> {
    let login = this.logins.get(ref)
    if (!login) {
      login = this.prepare(ref)
      this.logins.set(ref, login)
      login.catch(() => this.logins.delete(ref))
    }
    return this.projects.connections.pool(ref, await login, { purpose: POOL_PURPOSE, max: POOL_SIZE, applicationName: 'stratum-auth' })
  }

  private async prepare(ref: string): Promise<ProjectLogin> {
    const row = await findProject(this.db, ref)
    if (!row) throw new Error(`No project ${ref}`)
    const adminPassword = this.projects.credentials(row).adminPassword
    await withAdminClient(this.projects.adminConnection(row), (client) => ensureAuthSchema(client, adminPassword))
    return { port: row.port, user: AUTH_ADMIN_ROLE, password: authAdminPassword(adminPassword) }
  }
}
