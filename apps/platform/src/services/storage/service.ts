import type { Logger } from 'pino'
import type { ProjectService } from '../../control/projects.js'
import type { GatewayProject, ProjectDirectory } from '../../gateway/project-directory.js'
import { drainBody } from '../../gateway/proxy.js'
import type { ArchiveContents } from './archive.js'
import type { Db } from '../../store/db.js'
import { listBuckets, toBucket } from './buckets.js'
import { SERVICE_CALLER, StorageDatabases } from './database.js'
import type { StorageContext } from './context.js'
import { StorageError } from './errors.js'
import { ObjectFiles } from './files.js'
import { handleBuckets } from './handlers/buckets.js'
import { handleObjects } from './handlers/objects.js'
import { handleRender } from './handlers/render.js'
import { ImageTransforms } from './image-transform.js'
import { checkRequestText, type StorageAnswer, type StorageRequest } from './request.js'

/** The largest object any bucket takes unless configured otherwise (STRATUM_STORAGE_MAX_FILE_BYTES). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 ** 3

export interface StorageOptions {
  db: Db
  projects: ProjectService
  directory: ProjectDirectory
  dataDir: string
  maxFileBytes?: number
  log: Logger
}


/**
 * Supabase Storage's HTTP API (as @supabase/storage-js calls it) for every project, in-process:
 * rows in the project's storage schema, checked by the caller's own policies; bytes in files under
 * the data directory, streamed both ways.
 */
export class StorageService implements StorageContext {
  readonly dbs: StorageDatabases
  readonly files: ObjectFiles
  readonly images: ImageTransforms
  readonly maxFileBytes: number
  readonly log: Logger
  private readonly db: Db

  constructor(options: StorageOptions) {
    this.db = options.db
    this.dbs = new StorageDatabases(options.db, options.projects, options.log)
    this.files = new ObjectFiles(options.dataDir)
    this.images = new ImageTransforms(this.files, options.log)
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    this.log = options.log
    // Any change: the schema check starts over. A pool whose login changed is replaced on its next use
    // (project-connections.ts); a project that stops (pause, delete) loses its pool, and only then: ending it on
    // every change failed the requests under way.
    options.directory.onChange((ref) => this.dbs.recheck(ref))
    options.directory.onSettled(
      async (ref, project) => {
        if (project?.status !== 'ACTIVE_HEALTHY') await this.dbs.forget(ref)
      },
      (error, ref) => options.log.warn({ err: error, ref }, 'a stopped project kept its storage pool'),
    )
  }

  async handle(request: StorageRequest): Promise<StorageAnswer> {
    try {
      return await this.route(request)
    } catch (error) {
      // Refused before the body was read to its end: the rest is drained, or the next request on the
      // connection would wait behind it (the dashboard's route answers errors itself).
      drainBody(request.raw)
      throw error
    }
  }

  private async route(request: StorageRequest): Promise<StorageAnswer> {
    const segments = request.path.replace(/^\/+/, '').split('/')
    const [family, ...rest] = segments
    checkRequestText(family, request.path, request.query)
    const answer =
      family === 'bucket' ? await handleBuckets(this, request, rest.filter(Boolean))
      : family === 'object' ? await handleObjects(this, request, rest)
      : family === 'render' ? await handleRender(this, request, rest)
      : null
    if (!answer) throw new StorageError(404, 'NotFound', `Route ${request.method}:${request.path} not found`)
    return answer
  }

  /** The health check (GET /v1/projects/{ref}/health): the project's buckets read as service_role, as its API would. */
  async probe(project: GatewayProject): Promise<void> {
    await this.dbs.asCaller(project, SERVICE_CALLER, (client) => client.query('SELECT count(*) FROM storage.buckets'))
  }

  async projectMaxFileBytes(ref: string): Promise<number> {
    const { rows } = await this.db.query<{ file_size_limit: string | null }>('SELECT file_size_limit FROM project_storage_config WHERE project_ref = $1', [ref])
    const own = rows[0]?.file_size_limit
    return own === undefined || own === null ? this.maxFileBytes : Math.min(Number(own), this.maxFileBytes)
  }

  /** Sets the project's largest object (PATCH /v1/projects/{ref}/config/storage). */
  async setProjectMaxFileBytes(ref: string, bytes: number): Promise<void> {
    await this.db.query(
      `INSERT INTO project_storage_config (project_ref, file_size_limit) VALUES ($1, $2)
       ON CONFLICT (project_ref) DO UPDATE SET file_size_limit = $2, updated_at = now()`,
      [ref, bytes],
    )
  }

  /** Whether the project serves image transformations (the render routes): on unless its owner turned them off. */
  async imageTransformationEnabled(ref: string): Promise<boolean> {
    const { rows } = await this.db.query<{ image_transformation: boolean }>('SELECT image_transformation FROM project_storage_config WHERE project_ref = $1', [ref])
    return rows[0]?.image_transformation ?? true
  }

  async setImageTransformation(ref: string, enabled: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO project_storage_config (project_ref, image_transformation) VALUES ($1, $2)
       ON CONFLICT (project_ref) DO UPDATE SET image_transformation = $2, updated_at = now()`,
      [ref, enabled],
    )
  }

  /** Every bucket and object of a project, read as the platform (the storage archive). */
  async archiveContents(project: GatewayProject): Promise<ArchiveContents> {
    return this.dbs.asCaller(project, SERVICE_CALLER, async (client) => {
      const buckets = (await listBuckets(client)).map(toBucket)
      const { rows } = await client.query<{ bucket_id: string; name: string; version: string }>(
        'SELECT bucket_id, name, version FROM storage.objects WHERE version IS NOT NULL ORDER BY bucket_id, name',
      )
      const objects = rows
        .filter((row) => this.files.exists(project.ref, row.version))
        .map((row) => ({ bucket: row.bucket_id, name: row.name, file: this.files.pathOf(project.ref, row.version) }))
      return { buckets, objects }
    })
  }

  stop(): Promise<void> {
    return this.dbs.stop()
  }
}
