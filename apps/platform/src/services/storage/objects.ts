import type pg from 'pg'
import { noSuchKey } from './errors.js'
import { uuidOrNull } from './buckets.js'

/**
 * storage.objects, always read and written as the caller (policies decide). `metadata` holds what
 * storage-api keeps there (eTag, size, mimetype, cacheControl, lastModified, contentLength,
 * httpStatusCode); `user_metadata` what the client sent; `version` names the file on disk.
 */
export interface ObjectRow {
  id: string
  bucket_id: string
  name: string
  owner: string | null
  owner_id: string | null
  version: string | null
  metadata: ObjectMetadata | null
  user_metadata: Record<string, unknown> | null
  created_at: Date
  updated_at: Date
  last_accessed_at: Date
}

export interface ObjectMetadata {
  eTag: string
  size: number
  mimetype: string
  cacheControl: string
  lastModified: string
  contentLength: number
  httpStatusCode: number
}

export function objectMetadata(size: number, etag: string, mimetype: string, cacheControl: string): ObjectMetadata {
  return { eTag: etag, size, mimetype, cacheControl, lastModified: new Date().toUTCString(), contentLength: size, httpStatusCode: 200 }
}

export async function findObject(client: pg.ClientBase, bucket: string, name: string): Promise<ObjectRow | null> {
  const { rows } = await client.query<ObjectRow>('SELECT * FROM storage.objects WHERE bucket_id = $1 AND name = $2', [bucket, name])
  return rows[0] ?? null
}

export async function requireObject(client: pg.ClientBase, bucket: string, name: string): Promise<ObjectRow> {
  const row = await findObject(client, bucket, name)
  if (!row) throw noSuchKey()
  return row
}

export interface ObjectWrite {
  bucket: string
  name: string
  ownerId: string | null
  version: string
  metadata: ObjectMetadata
  userMetadata: Record<string, unknown> | null
}

/**
 * Inserts the row, or with `upsert` replaces the existing one's version and metadata (its id stays).
 * Returns the row and the version it replaced, whose file the caller removes once this commits.
 */
export async function writeObject(client: pg.ClientBase, write: ObjectWrite, upsert: boolean): Promise<{ row: ObjectRow; replaced: string | null }> {
  const previous = upsert
    ? (await client.query<{ version: string | null }>('SELECT version FROM storage.objects WHERE bucket_id = $1 AND name = $2 FOR UPDATE', [write.bucket, write.name])).rows[0]
    : undefined
  const values = [write.bucket, write.name, uuidOrNull(write.ownerId), write.ownerId, write.version, write.metadata, write.userMetadata]
  const { rows } = await client.query<ObjectRow>(
    upsert
      ? `INSERT INTO storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (bucket_id, name) DO UPDATE SET owner = $3, owner_id = $4, version = $5, metadata = $6, user_metadata = $7,
           updated_at = now(), last_accessed_at = now()
         RETURNING *`
      : `INSERT INTO storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    values,
  )
  return { row: rows[0]!, replaced: previous?.version ?? null }
}

/** Deletes what the caller may delete among `names`; returns the deleted rows. */
export async function deleteObjects(client: pg.ClientBase, bucket: string, names: string[]): Promise<ObjectRow[]> {
  const { rows } = await client.query<ObjectRow>('DELETE FROM storage.objects WHERE bucket_id = $1 AND name = ANY($2) RETURNING *', [bucket, names])
  return rows
}

/** Every object of a bucket (bucket emptying: service role, or the caller's delete policies). */
export async function deleteAllObjects(client: pg.ClientBase, bucket: string): Promise<ObjectRow[]> {
  const { rows } = await client.query<ObjectRow>('DELETE FROM storage.objects WHERE bucket_id = $1 RETURNING *', [bucket])
  return rows
}

/** Renames (and may move across buckets); the file stays where it is. */
export async function moveObject(client: pg.ClientBase, from: { bucket: string; name: string }, to: { bucket: string; name: string }): Promise<ObjectRow> {
  const { rows } = await client.query<ObjectRow>(
    `UPDATE storage.objects SET bucket_id = $3, name = $4, updated_at = now() WHERE bucket_id = $1 AND name = $2 RETURNING *`,
    [from.bucket, from.name, to.bucket, to.name],
  )
  if (!rows[0]) throw noSuchKey()
  return rows[0]
}

export async function touchObject(client: pg.ClientBase, id: string): Promise<void> {
  await client.query('UPDATE storage.objects SET last_accessed_at = now() WHERE id = $1', [id])
}

const SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at'])

export interface ListOptions {
  prefix: string
  limit: number
  offset: number
  search: string
  sortColumn: string
  sortOrder: 'asc' | 'desc'
}

export interface ListedItem {
  name: string
  id: string | null
  updated_at: string | null
  created_at: string | null
  last_accessed_at: string | null
  metadata: ObjectMetadata | null
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * One level of a bucket below `prefix`, as storage.search answers it: folders (the next path segment of
 * deeper names, without id or dates) and files, filtered by `search` at the start of their names.
 */
export async function listLevel(client: pg.ClientBase, bucket: string, options: ListOptions): Promise<ListedItem[]> {
  const prefix = options.prefix && !options.prefix.endsWith('/') ? `${options.prefix}/` : options.prefix
  const column = SORT_COLUMNS.has(options.sortColumn) ? options.sortColumn : 'name'
  const order = options.sortOrder === 'desc' ? 'DESC' : 'ASC'
  const { rows } = await client.query<ListedItem>(
    `WITH below AS (
       SELECT o.*, substr(o.name, length($2) + 1) AS rest FROM storage.objects o
       WHERE o.bucket_id = $1 AND o.name LIKE $3 ESCAPE '\\'
     ), items AS (
       SELECT split_part(rest, '/', 1) AS name, NULL::uuid AS id, NULL::timestamptz AS updated_at, NULL::timestamptz AS created_at,
              NULL::timestamptz AS last_accessed_at, NULL::jsonb AS metadata
       FROM below WHERE position('/' IN rest) > 0 GROUP BY split_part(rest, '/', 1)
       UNION ALL
       SELECT rest, id, updated_at, created_at, last_accessed_at, metadata FROM below WHERE position('/' IN rest) = 0
     )
     SELECT * FROM items WHERE name <> '' AND name ILIKE $4 ESCAPE '\\'
     ORDER BY ${column} ${order} NULLS FIRST, name ${order} LIMIT $5 OFFSET $6`,
    [bucket, prefix, `${escapeLike(prefix)}%`, `${escapeLike(options.search)}%`, options.limit, options.offset],
  )
  return rows.map((row) => ({
    ...row,
    updated_at: dateText(row.updated_at),
    created_at: dateText(row.created_at),
    last_accessed_at: dateText(row.last_accessed_at),
  }))
}

const dateText = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : (value as string | null))
