import { createHash, randomBytes } from 'node:crypto'
import type { SecretBox } from '../control/secret-box.js'
import type { Queryable } from '../store/db.js'

/**
 * Publishable and secret API keys (sb_publishable_..., sb_secret_...), the field's newer keys beside
 * the legacy JWT pair. They are random strings, not JWTs: the gateway finds a presented key by its
 * SHA-256 and acts with its role's JWT (publishable -> anon, secret -> service_role).
 */

export type NamedKeyType = 'publishable' | 'secret'
export const KEY_PREFIX: Record<NamedKeyType, string> = { publishable: 'sb_publishable_', secret: 'sb_secret_' }
/** What the dashboard and the API show of a key that is not revealed: its type prefix and 5 more characters. */
const SHOWN_CHARS = 5

export interface NamedKeyRow {
  id: string
  project_ref: string
  type: NamedKeyType
  name: string
  description: string | null
  key_sha256: string
  key_sealed: string
  prefix: string
  secret_jwt_template: Record<string, unknown> | null
  inserted_at: Date
  updated_at: Date
}

export const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex')

/** The random part's and the checksum's lengths (base64url: both may contain '_' themselves, so they are cut by length). */
const RANDOM_CHARS = 22
const CHECKSUM_CHARS = 8

const checksumOf = (body: string) => createHash('sha256').update(body).digest('base64url').slice(0, CHECKSUM_CHARS)

/** 'sb_secret_' + 22 random base64url characters + '_' + 8 of a checksum (a mistyped key fails fast). */
export function newNamedKey(type: NamedKeyType): string {
  const body = `${KEY_PREFIX[type]}${randomBytes(16).toString('base64url')}`
  return `${body}_${checksumOf(body)}`
}

/** The key's type when the text has a named key's form and its checksum holds: cheap, before any lookup. */
export function looksLikeNamedKey(text: string): NamedKeyType | null {
  const type = text.startsWith(KEY_PREFIX.publishable) ? 'publishable' : text.startsWith(KEY_PREFIX.secret) ? 'secret' : null
  if (!type) return null
  const cut = KEY_PREFIX[type].length + RANDOM_CHARS
  if (text.length !== cut + 1 + CHECKSUM_CHARS || text[cut] !== '_') return null
  return checksumOf(text.slice(0, cut)) === text.slice(cut + 1) ? type : null
}

export async function listNamedKeys(db: Queryable, ref: string): Promise<NamedKeyRow[]> {
  const { rows } = await db.query<NamedKeyRow>('SELECT * FROM project_named_keys WHERE project_ref = $1 ORDER BY inserted_at, id', [ref])
  return rows
}

export async function findNamedKey(db: Queryable, ref: string, id: string): Promise<NamedKeyRow | null> {
  const { rows } = await db.query<NamedKeyRow>('SELECT * FROM project_named_keys WHERE project_ref = $1 AND id = $2', [ref, id])
  return rows[0] ?? null
}

export interface NewNamedKey {
  type: NamedKeyType
  name: string
  description?: string | null
  secretJwtTemplate?: Record<string, unknown> | null
}

/** Null when the project already has a key of that name. */
export async function createNamedKey(db: Queryable, box: SecretBox, ref: string, input: NewNamedKey): Promise<NamedKeyRow | null> {
  const key = newNamedKey(input.type)
  const { rows } = await db.query<NamedKeyRow>(
    `INSERT INTO project_named_keys (project_ref, type, name, description, key_sha256, key_sealed, prefix, secret_jwt_template)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (project_ref, name) DO NOTHING RETURNING *`,
    [ref, input.type, input.name, input.description ?? null, keyDigest(key), box.seal(key), key.slice(0, KEY_PREFIX[input.type].length + SHOWN_CHARS), input.secretJwtTemplate ?? null],
  )
  return rows[0] ?? null
}

export async function updateNamedKey(
  db: Queryable,
  ref: string,
  id: string,
  change: { name?: string; description?: string | null; secretJwtTemplate?: Record<string, unknown> | null },
): Promise<NamedKeyRow | null> {
  const { rows } = await db.query<NamedKeyRow>(
    `UPDATE project_named_keys SET
       name = coalesce($3, name),
       description = CASE WHEN $4::boolean THEN $5 ELSE description END,
       secret_jwt_template = CASE WHEN $6::boolean THEN $7::jsonb ELSE secret_jwt_template END,
       updated_at = now()
     WHERE project_ref = $1 AND id = $2 RETURNING *`,
    [ref, id, change.name ?? null, change.description !== undefined, change.description ?? null, change.secretJwtTemplate !== undefined, change.secretJwtTemplate ?? null],
  )
  return rows[0] ?? null
}

export async function deleteNamedKey(db: Queryable, ref: string, id: string): Promise<NamedKeyRow | null> {
  const { rows } = await db.query<NamedKeyRow>('DELETE FROM project_named_keys WHERE project_ref = $1 AND id = $2 RETURNING *', [ref, id])
  return rows[0] ?? null
}
