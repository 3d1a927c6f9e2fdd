import type pg from 'pg'
import type { Bucket, BucketType } from '@stratum/contracts'
import { noSuchBucket } from './errors.js'

/** storage.buckets as storage-api answers it (and the dashboard's bucket calls). */
export interface BucketRow {
  id: string
  name: string
  owner: string | null
  owner_id: string | null
  public: boolean
  file_size_limit: string | null
  allowed_mime_types: string[] | null
  type: BucketType
  created_at: Date
  updated_at: Date
}

export const toBucket = (row: BucketRow): Bucket => ({
  id: row.id,
  name: row.name,
  owner: row.owner_id ?? row.owner ?? '',
  public: row.public,
  allowed_mime_types: row.allowed_mime_types,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
  type: row.type,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at'])

export interface BucketListOptions {
  limit?: number
  offset?: number
  search?: string
  sortColumn?: string
  sortOrder?: string
}

/** The buckets the caller's policies let it see (service_role: all). */
export async function listBuckets(client: pg.ClientBase, options: BucketListOptions = {}): Promise<BucketRow[]> {
  const column = SORT_COLUMNS.has(options.sortColumn ?? '') ? options.sortColumn! : 'name'
  const order = options.sortOrder?.toLowerCase() === 'desc' ? 'DESC' : 'ASC'
  const { rows } = await client.query<BucketRow>(
    `SELECT * FROM storage.buckets WHERE ($1::text IS NULL OR name ILIKE '%' || $1 || '%')
     ORDER BY ${column} ${order} LIMIT $2 OFFSET $3`,
    [options.search || null, options.limit ?? null, options.offset ?? 0],
  )
  return rows
}

export async function findBucket(client: pg.ClientBase, id: string): Promise<BucketRow | null> {
  const { rows } = await client.query<BucketRow>('SELECT * FROM storage.buckets WHERE id = $1', [id])
  return rows[0] ?? null
}

export async function requireBucket(client: pg.ClientBase, id: string): Promise<BucketRow> {
  const bucket = await findBucket(client, id)
  if (!bucket) throw noSuchBucket()
  return bucket
}

export interface NewBucket {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
  type: BucketType
}

/** Inserts as the caller (policies on storage.buckets apply); a taken id is Postgres error 23505. */
export async function insertBucket(client: pg.ClientBase, bucket: NewBucket, ownerId: string | null): Promise<BucketRow> {
  const { rows } = await client.query<BucketRow>(
    `INSERT INTO storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
     VALUES ($1, $1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [bucket.id, uuidOrNull(ownerId), ownerId, bucket.public, bucket.file_size_limit, bucket.allowed_mime_types, bucket.type],
  )
  return rows[0]!
}

export interface BucketChanges {
  public?: boolean
  file_size_limit?: number | null
  allowed_mime_types?: string[] | null
}

/** Changes only the given fields; null when no row the caller may update has that id. */
export async function updateBucket(client: pg.ClientBase, id: string, changes: BucketChanges): Promise<BucketRow | null> {
  const { rows } = await client.query<BucketRow>(
    `UPDATE storage.buckets SET
       public = CASE WHEN $2 THEN $3 ELSE public END,
       file_size_limit = CASE WHEN $4 THEN $5::bigint ELSE file_size_limit END,
       allowed_mime_types = CASE WHEN $6 THEN $7::text[] ELSE allowed_mime_types END,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      id,
      changes.public !== undefined, changes.public ?? false,
      changes.file_size_limit !== undefined, changes.file_size_limit ?? null,
      changes.allowed_mime_types !== undefined, changes.allowed_mime_types ?? null,
    ],
  )
  return rows[0] ?? null
}

export async function deleteBucketRow(client: pg.ClientBase, id: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM storage.buckets WHERE id = $1', [id])
  return (rowCount ?? 0) > 0
}

export const uuidOrNull = (value: string | null): string | null =>
  value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ? value : null
