import { randomBytes } from 'node:crypto'
import type { ApiKeyRole } from '@stratum/contracts'
import { SignJWT, jwtVerify } from 'jose'
import type { SecretBox } from '../control/secret-box.js'
import type { Queryable } from '../store/db.js'

/** Issuer of every key we sign. */
export const KEY_ISSUER = 'stratum'
/** Keys are long-lived by design (as the field's legacy keys): ten years. */
const KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600

export interface ProjectKeysRow {
  project_ref: string
  jwt_secret_sealed: string
  anon_key: string
  service_role_key_sealed: string
  legacy_enabled: boolean
  created_at: Date
  updated_at: Date
}

/** A project's secret and keys, opened. */
export interface ProjectKeys {
  ref: string
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  legacyEnabled: boolean
  createdAt: Date
  updatedAt: Date
}

/** 40 random bytes, base64url: 54 characters of [A-Za-z0-9_-]. */
export function newJwtSecret(): string {
  return randomBytes(40).toString('base64url')
}

/** One legacy key: an HS256 JWT with the project's ref and the Postgres role it stands for. */
export async function signKey(secret: string, ref: string, role: ApiKeyRole, issuedAt = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ ref, role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(KEY_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + KEY_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(secret))
}

export async function signKeys(secret: string, ref: string): Promise<{ anon: string; serviceRole: string }> {
  const issuedAt = Math.floor(Date.now() / 1000)
  return { anon: await signKey(secret, ref, 'anon', issuedAt), serviceRole: await signKey(secret, ref, 'service_role', issuedAt) }
}

/** Throws unless the key is a valid HS256 JWT of this project and role, signed with the secret. */
export async function verifyKey(secret: string, key: string, ref: string, role: ApiKeyRole): Promise<void> {
  const { payload } = await jwtVerify(key, new TextEncoder().encode(secret), { issuer: KEY_ISSUER, algorithms: ['HS256'] })
  if (payload.ref !== ref || payload.role !== role) throw new Error(`The ${role} key does not name this project and role`)
}

function open(box: SecretBox, row: ProjectKeysRow): ProjectKeys {
  return {
    ref: row.project_ref,
    jwtSecret: box.open(row.jwt_secret_sealed),
    anonKey: row.anon_key,
    serviceRoleKey: box.open(row.service_role_key_sealed),
    legacyEnabled: row.legacy_enabled,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The project's secret and keys, created on first use (for projects made before keys existed,
 * and for new ones). Concurrent first uses agree: the first insert wins, the others read it.
 */
export async function ensureProjectKeys(db: Queryable, box: SecretBox, ref: string): Promise<ProjectKeys> {
  const existing = await db.query<ProjectKeysRow>('SELECT * FROM project_api_keys WHERE project_ref = $1', [ref])
  if (existing.rows[0]) return open(box, existing.rows[0])
  const secret = newJwtSecret()
  const keys = await signKeys(secret, ref)
  await db.query(
    `INSERT INTO project_api_keys (project_ref, jwt_secret_sealed, anon_key, service_role_key_sealed)
     VALUES ($1, $2, $3, $4) ON CONFLICT (project_ref) DO NOTHING`,
    [ref, box.seal(secret), keys.anon, box.seal(keys.serviceRole)],
  )
  const { rows } = await db.query<ProjectKeysRow>('SELECT * FROM project_api_keys WHERE project_ref = $1', [ref])
  return open(box, rows[0]!)
}

export async function setLegacyEnabled(db: Queryable, box: SecretBox, ref: string, enabled: boolean): Promise<boolean> {
  await ensureProjectKeys(db, box, ref)
  const { rows } = await db.query<{ legacy_enabled: boolean }>(
    `UPDATE project_api_keys SET legacy_enabled = $2, updated_at = now() WHERE project_ref = $1 RETURNING legacy_enabled`,
    [ref, enabled],
  )
  return rows[0]!.legacy_enabled
}
