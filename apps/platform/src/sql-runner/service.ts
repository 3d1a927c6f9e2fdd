import type { ProjectRow } from '../control/project-store.js'
import type { ProjectService } from '../control/projects.js'
import pg from 'pg'
import { authenticatorStatement } from '../services/rest/role-settings.js'
import { runSql, type DivertedStatement, type RunOptions, type RunOutcome } from './runner.js'
import { ADMIN_SQL_APPLICATION, sqlPool, USER_SQL_APPLICATION, type SqlMode, type SqlTarget } from './pools.js'
import type { ParserPostgresVersion } from '@stratum/sql/parser'

export interface OngoingQueryRow {
  pid: number
  query: string
  query_start: string | null
  state: string | null
  usename: string | null
  application_name: string
}

/** Sessions users' SQL runs in, and any outside client's; not the platform's own (meta, backups, this listing). */
const ONGOING_SQL = `
  SELECT pid, query, query_start::text AS query_start, state, usename::text AS usename, application_name
  FROM pg_stat_activity
  WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle'
    AND (application_name = $1 OR application_name NOT LIKE 'stratum-%')`

/** Entries kept before starting over: deleted projects' pools must not pile up. */
const MAX_KEPT_POOLS = 3_000

/** The sealed password each mode logs in with: a new one (a password change) means a new login. */
const SEALED_PASSWORD: Record<SqlMode, (project: ProjectRow) => string | null> = {
  'read-only': (project) => project.readonly_password_sealed,
  full: (project) => project.editor_password_sealed,
  admin: (project) => project.admin_password_sealed,
}

/**
 * Runs users' SQL on a project's instance: read-only (as the read-only role) or full (as the
 * superuser), each from a small pool; lists, cancels and terminates running queries.
 */
export class SqlService {
  /**
   * Each project's pool per mode, with the login it was asked for: a query on an unchanged project opens no secret
   * and builds no login again (issue 32). A new port or password asks the registry again, and so does a pool the
   * registry ended (the project stopped, or another caller's newer login replaced it).
   */
  private readonly pools = new Map<string, { login: string; pool: pg.Pool }>()

  constructor(private readonly projects: ProjectService) {}

  private pool(project: ProjectRow, mode: SqlMode) {
    const key = `${project.ref}\u0000${mode}`
    const login = `${project.port}\u0000${SEALED_PASSWORD[mode](project)}`
    const kept = this.pools.get(key)
    if (kept && kept.login === login && !kept.pool.ending) return kept.pool
    const pool = sqlPool(this.projects.connections, this.target(project, mode), mode)
    if (this.pools.size >= MAX_KEPT_POOLS) this.pools.clear()
    this.pools.set(key, { login, pool })
    return pool
  }

  private target(project: ProjectRow, role: 'read-only' | 'full' | 'admin'): SqlTarget {
    const credentials = this.projects.credentials(project)
    return {
      ref: project.ref,
      port: project.port,
      password: role === 'read-only' ? credentials.readonlyPassword : role === 'full' ? credentials.editorPassword : credentials.adminPassword,
    }
  }

  async run(project: ProjectRow, mode: 'read-only' | 'full', sql: string, options: Omit<RunOptions, 'cancel' | 'postgresVersion'>): Promise<RunOutcome> {
    return runSql(this.pool(project, mode), sql, {
      ...options,
      postgresVersion: Number(project.postgres_major) as ParserPostgresVersion,
      ...(mode === 'full' ? { divert: (statement: string) => this.authenticatorSetting(project, statement) } : {}),
      cancel: async (pid) => {
        await this.admin(project).query('SELECT pg_catalog.pg_cancel_backend($1::int4)', [pid])
      },
    })
  }

  /**
   * PostgREST's settings on authenticator, which `postgres` holds no right to set (services/rest/role-settings.ts):
   * an allowed one is applied by the platform's superuser, with the statement the platform wrote, and PostgREST
   * reads its configuration again at once; anything else on authenticator is refused with the reason.
   */
  private async authenticatorSetting(project: ProjectRow, statement: string): Promise<DivertedStatement | null> {
    const handled = await authenticatorStatement(statement)
    if (!handled) return null
    if ('refuse' in handled) return { error: { message: handled.refuse, code: '42501', ...(handled.hint ? { hint: handled.hint } : {}) } }
    try {
      await this.admin(project).query(`${handled.apply}; NOTIFY pgrst, 'reload config'`)
    } catch (error) {
      if (error instanceof pg.DatabaseError) return { error: { message: error.message, ...(error.code ? { code: error.code } : {}) } }
      throw error
    }
    return { commandTag: handled.commandTag }
  }

  private admin(project: ProjectRow) {
    return this.pool(project, 'admin')
  }

  async ongoing(project: ProjectRow, pid?: number): Promise<OngoingQueryRow[]> {
    const sql = pid === undefined ? `${ONGOING_SQL} ORDER BY query_start` : `${ONGOING_SQL} AND pid = $2`
    const { rows } = await this.admin(project).query<OngoingQueryRow>(sql, pid === undefined ? [USER_SQL_APPLICATION] : [USER_SQL_APPLICATION, pid])
    return rows
  }

  async signal(project: ProjectRow, pid: number, how: 'cancel' | 'terminate'): Promise<boolean> {
    const fn = how === 'cancel' ? 'pg_cancel_backend' : 'pg_terminate_backend'
    // Schema-qualified and typed: the session's search_path is pinned too (bootstrap-roles.ts), but an
    // untyped argument is what let a tenant's text overload win before (CVE-2018-1058 class).
    const { rows } = await this.admin(project).query<{ done: boolean }>(`SELECT pg_catalog.${fn}($1::int4) AS done`, [pid])
    return rows[0]?.done === true
  }
}

export { ADMIN_SQL_APPLICATION, USER_SQL_APPLICATION }
