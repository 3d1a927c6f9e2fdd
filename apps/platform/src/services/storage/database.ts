import pg from 'pg'
import type { Logger } from 'pino'
import { AUTHENTICATOR_ROLE, inLoginTransaction, ownerLogin, withAdminClient } from '../../control/bootstrap-roles.js'
import { findProject } from '../../control/project-store.js'
import type { ProjectService } from '../../control/projects.js'
import { ensureStorageSchema } from './schema.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { inClientTransaction, type Db } from '../../store/db.js'

const POOL_SIZE = 4
const IDLE_MS = 30_000
const POOL_PURPOSE = 'storage'

/** The role and claims a storage request runs with: policies on storage.objects read them. */
export interface Caller {
  role: 'anon' | 'authenticated' | 'service_role'
  claims: Record<string, unknown>
}

export const SERVICE_CALLER: Caller = { role: 'service_role', claims: { role: 'service_role' } }

/**
 * The storage service's connections to each project database, as `authenticator` (the login PostgREST
 * uses): every request runs in a transaction that switches to the caller's API role and sets
 * `request.jwt.claims`, so auth.uid() and the user's policies decide exactly as they do for the REST
 * API. The first use of a project in this process makes sure the schema exists (older projects) and
 * moves bucket records the platform kept before storage was served.
 */
export class StorageDatabases {
  private ready = new Map<string, Promise<void>>()

  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
    private readonly log: Logger,
  ) {}

  /** Runs fn in one transaction as the caller; a policy refusal surfaces as Postgres error 42501. */
  async asCaller<T>(project: GatewayProject, caller: Caller, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ensureReady(project.ref)
    const client = await this.pool(project).connect()
    let broken = false
    try {
      return await inClientTransaction(
        client,
        async () => {
          await client.query(`SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                                     set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`, [
            caller.role, JSON.stringify(caller.claims), typeof caller.claims.sub === 'string' ? caller.claims.sub : '',
          ])
          return fn(client)
        },
        () => (broken = true),
      )
    } finally {
      client.release(broken)
    }
  }

  /** The project changed (a restore, an upgrade): its schema is checked again at the next request. */
  recheck(ref: string): void {
    this.ready.delete(ref)
  }

  /** Closes the project's pool (it stopped) and forgets that its schema was checked. */
  async forget(ref: string): Promise<void> {
    this.recheck(ref)
    await this.projects.connections.forget(ref, POOL_PURPOSE)
  }

  async stop(): Promise<void> {
    await Promise.all([...this.ready.keys()].map((ref) => this.forget(ref)))
  }

  /** Schema and legacy records, once per project and process. */
  ensureReady(ref: string): Promise<void> {
    let ready = this.ready.get(ref)
    if (!ready) {
      ready = this.prepare(ref)
      this.ready.set(ref, ready)
      ready.catch(() => this.ready.delete(ref))
    }
    return ready
  }

  /** As `authenticator`, the login PostgREST uses; a new port or password (restore, reset) gets a new pool. */
  private pool(project: GatewayProject): pg.Pool {
    return this.projects.connections.pool(
      project.ref,
      { port: project.port, user: AUTHENTICATOR_ROLE, password: project.authenticatorPassword },
      { purpose: POOL_PURPOSE, max: POOL_SIZE, idleTimeoutMillis: IDLE_MS, applicationName: 'stratum-storage' },
    )
  }

  private async prepare(ref: string): Promise<void> {
    const row = await findProject(this.db, ref)
    if (!row) throw new Error(`No project ${ref}`)
    const { editorPassword } = this.projects.credentials(row)
    await withAdminClient(this.projects.adminConnection(row), async (client) => {
      await ensureStorageSchema(client, editorPassword)
      await this.moveLegacyBuckets(ref, client, editorPassword)
    })
  }

  /**
   * Before storage was served, buckets were rows of the platform database (storage_buckets). They move
   * into the project's storage.buckets once; the platform's rows are deleted after the copy commits.
   */
  private async moveLegacyBuckets(ref: string, client: pg.Client, editorPassword: string): Promise<void> {
    const { rows } = await this.db.query<{
      id: string; owner: string | null; public: boolean; allowed_mime_types: string[] | null; file_size_limit: string | null
      type: string; created_at: Date; updated_at: Date
    }>('SELECT * FROM storage_buckets WHERE project_ref = $1', [ref])
    if (!rows.length) return
    // As the table's owner, logged in as such: a tenant trigger on storage.buckets must not reach the superuser.
    await inLoginTransaction(client, ownerLogin(editorPassword), async (session) => {
      for (const bucket of rows) {
        await session.query(
          `INSERT INTO storage.buckets (id, name, owner_id, public, allowed_mime_types, file_size_limit, type, created_at, updated_at)
           VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
          [bucket.id, bucket.owner, bucket.public, bucket.allowed_mime_types, bucket.file_size_limit, bucket.type, bucket.created_at, bucket.updated_at],
        )
      }
    })
    await this.db.query('DELETE FROM storage_buckets WHERE project_ref = $1 AND id = ANY($2)', [ref, rows.map((bucket) => bucket.id)])
    this.log.info({ ref, buckets: rows.length }, 'storage: bucket records moved into the project database')
  }
}
