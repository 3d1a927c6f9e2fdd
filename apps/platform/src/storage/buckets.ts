import fs from 'node:fs'
import path from 'node:path'
import type { Bucket, BucketType } from '@stratum/contracts'
import type { Queryable } from '../store/db.js'

/** Buckets as records in the platform database; their objects live in storage/<ref>/<bucket>/. */
interface BucketRow {
  project_ref: string
  id: string
  owner: string | null
  public: boolean
  allowed_mime_types: string[] | null
  file_size_limit: string | null
  type: BucketType
  created_at: Date
  updated_at: Date
}

export const toBucket = (row: BucketRow): Bucket => ({
  id: row.id,
  name: row.id,
  owner: row.owner ?? '',
  public: row.public,
  allowed_mime_types: row.allowed_mime_types,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
  type: row.type,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

/** The directory of a project's objects; bucket names are checked against a safe alphabet first. */
export const storageDir = (dataDir: string, ref: string) => path.join(dataDir, 'storage', ref)
export const bucketDir = (dataDir: string, ref: string, bucket: string) => path.join(storageDir(dataDir, ref), bucket)

export async function listBuckets(db: Queryable, ref: string): Promise<Bucket[]> {
  const { rows } = await db.query<BucketRow>('SELECT * FROM storage_buckets WHERE project_ref = $1 ORDER BY id', [ref])
  return rows.map(toBucket)
}

export async function findBucket(db: Queryable, ref: string, id: string): Promise<Bucket | null> {
  const { rows } = await db.query<BucketRow>('SELECT * FROM storage_buckets WHERE project_ref = $1 AND id = $2', [ref, id])
  return rows[0] ? toBucket(rows[0]) : null
}

export interface NewBucket {
  id: string
  public: boolean
  allowed_mime_types: string[] | null
  file_size_limit: number | null
  type: BucketType
}

/** Inserts a bucket; null when one of that name exists already (names are case-sensitive ids). */
export async function insertBucket(db: Queryable, ref: string, owner: string, bucket: NewBucket): Promise<Bucket | null> {
  const { rows } = await db.query<BucketRow>(
    `INSERT INTO storage_buckets (project_ref, id, owner, public, allowed_mime_types, file_size_limit, type)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project_ref, id) DO NOTHING RETURNING *`,
    [ref, bucket.id, owner, bucket.public, bucket.allowed_mime_types, bucket.file_size_limit, bucket.type],
  )
  return rows[0] ? toBucket(rows[0]) : null
}

export interface BucketChanges {
  public?: boolean
  allowed_mime_types?: string[] | null
  file_size_limit?: number | null
}

export async function updateBucket(db: Queryable, ref: string, id: string, changes: BucketChanges): Promise<Bucket | null> {
  const { rows } = await db.query<BucketRow>(
    `UPDATE storage_buckets SET
       public = CASE WHEN $3 THEN $4 ELSE public END,
       allowed_mime_types = CASE WHEN $5 THEN $6::text[] ELSE allowed_mime_types END,
       file_size_limit = CASE WHEN $7 THEN $8::bigint ELSE file_size_limit END,
       updated_at = now()
     WHERE project_ref = $1 AND id = $2 RETURNING *`,
    [
      ref, id,
      changes.public !== undefined, changes.public ?? false,
      changes.allowed_mime_types !== undefined, changes.allowed_mime_types ?? null,
      changes.file_size_limit !== undefined, changes.file_size_limit ?? null,
    ],
  )
  return rows[0] ? toBucket(rows[0]) : null
}

/** Deletes the record and the bucket's objects. */
export async function deleteBucket(db: Queryable, dataDir: string, ref: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM storage_buckets WHERE project_ref = $1 AND id = $2', [ref, id])
  if (!rowCount) return false
  fs.rmSync(bucketDir(dataDir, ref, id), { recursive: true, force: true })
  return true
}
