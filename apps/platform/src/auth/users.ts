import type { Profile } from '@stratum/contracts'
import type { Queryable } from '../store/db.js'
import { newOrgSlug } from './organizations.js'
import { generatePassword, hashPassword } from './passwords.js'

export interface UserRow {
  id: string
  email: string
  username: string
  password_hash: string
  password_change_required: boolean
  created_at: Date
}

export function toProfile(user: UserRow): Profile {
  return {
    id: user.id,
    primary_email: user.email,
    username: user.username,
    password_change_required: user.password_change_required,
    created_at: user.created_at.toISOString(),
  }
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE email = $1', [email.trim().toLowerCase()])
  return rows[0] ?? null
}

export async function createUser(
  db: Queryable,
  email: string,
  password: string,
  options: { passwordChangeRequired?: boolean } = {},
): Promise<UserRow> {
  const normalized = email.trim().toLowerCase()
  const username = normalized.split('@')[0] ?? normalized
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (email, username, password_hash, password_change_required)
     VALUES ($1, $2, $3, $4) RETURNING *`,
    [normalized, username, await hashPassword(password), options.passwordChangeRequired ?? false],
  )
  return rows[0]!
}

export async function setPassword(db: Queryable, userId: string, password: string, changeRequired: boolean): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    'UPDATE users SET password_hash = $2, password_change_required = $3 WHERE id = $1 RETURNING *',
    [userId, await hashPassword(password), changeRequired],
  )
  // A new password ends every browser session of the account.
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId])
  return rows[0]!
}

/**
 * First start: create the owner account and its organization. Returns the login to print once,
 * or null when accounts already exist.
 */
export async function ensureOwnerAccount(
  db: Queryable,
  email: string,
  configuredPassword: string | null,
): Promise<{ email: string; password: string; generated: boolean } | null> {
  const { rows } = await db.query<{ count: string }>('SELECT count(*) FROM users')
  if (Number(rows[0]!.count) > 0) return null
  const password = configuredPassword ?? generatePassword()
  const user = await createUser(db, email, password)
  const org = await db.query<{ id: string }>(
    `INSERT INTO organizations (slug, name) VALUES ($1, $2) RETURNING id`,
    [newOrgSlug(user.username), `${user.username}'s Org`],
  )
  await db.query(`INSERT INTO members (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [org.rows[0]!.id, user.id])
  return { email: user.email, password, generated: configuredPassword === null }
}
