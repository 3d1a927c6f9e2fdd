import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../store/db.js'
import { factorJson, userFactors } from './factors.js'

/** The auth.users columns the service reads. */
export interface UserRow {
  id: string
  aud: string
  role: string
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: Date | null
  invited_at: Date | null
  confirmation_token: string
  confirmation_sent_at: Date | null
  recovery_token: string
  recovery_sent_at: Date | null
  email_change_token_new: string
  email_change_token_current: string
  email_change_confirm_status: number
  reauthentication_token: string
  reauthentication_sent_at: Date | null
  email_change: string
  email_change_sent_at: Date | null
  last_sign_in_at: Date | null
  raw_app_meta_data: Record<string, unknown>
  raw_user_meta_data: Record<string, unknown>
  created_at: Date
  updated_at: Date
  phone: string | null
  phone_confirmed_at: Date | null
  phone_change: string
  phone_change_token: string
  phone_change_sent_at: Date | null
  confirmed_at: Date | null
  banned_until: Date | null
  is_anonymous: boolean
}

interface IdentityRow {
  id: string
  provider_id: string
  user_id: string
  identity_data: Record<string, unknown>
  provider: string
  last_sign_in_at: Date | null
  created_at: Date
  updated_at: Date
  email: string | null
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : undefined)

/** A user as GoTrue's JSON shows it (empty optional fields left out, as its `omitempty`). */
export async function userJson(db: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const identities = await db.query<IdentityRow>('SELECT * FROM auth.identities WHERE user_id = $1 ORDER BY created_at', [user.id])
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    new_phone: user.phone_change || undefined,
    phone_change_sent_at: iso(user.phone_change_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    banned_until: iso(user.banned_until),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: identities.rows.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: iso(identity.last_sign_in_at),
      created_at: iso(identity.created_at),
      updated_at: iso(identity.updated_at),
      email: identity.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  }
  // Left out when there are none (GoTrue's `omitempty`); auth-js's listFactors and getAuthenticatorAssuranceLevel read it.
  const factors = await userFactors(db, user.id)
  if (factors.length) json.factors = factors.map(factorJson)
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key]
  return json
}

export async function findUserById(db: Queryable, id: string, lock = false): Promise<UserRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null
  const { rows } = await db.query<UserRow>(`SELECT * FROM auth.users WHERE id = $1 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`, [id])
  return rows[0] ?? null
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>('SELECT * FROM auth.users WHERE lower(email) = lower($1) AND deleted_at IS NULL AND is_sso_user = false', [email])
  return rows[0] ?? null
}

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>('SELECT * FROM auth.users WHERE phone = $1 AND deleted_at IS NULL', [phone])
  return rows[0] ?? null
}

export interface NewUser {
  email: string | null
  phone: string | null
  passwordHash: string | null
  userMetadata: Record<string, unknown>
  appMetadata?: Record<string, unknown>
  emailConfirmed: boolean
  phoneConfirmed: boolean
  invited?: boolean
  anonymous?: boolean
}

/** Inserts the user and its identity (provider `email` or `phone`; none for an anonymous user), as GoTrue does at sign-up. */
export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow> {
  const id = randomUUID()
  if (user.anonymous) {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO auth.users (id, is_anonymous, raw_user_meta_data, raw_app_meta_data) VALUES ($1, true, $2, '{}') RETURNING *`,
      [id, user.userMetadata],
    )
    return rows[0]!
  }
  const provider = user.email ? 'email' : 'phone'
  const appMetadata = { provider, providers: [provider], ...(user.appMetadata ?? {}) }
  const { rows } = await db.query<UserRow>(
    `INSERT INTO auth.users (id, email, phone, encrypted_password, raw_user_meta_data, raw_app_meta_data,
        email_confirmed_at, phone_confirmed_at, invited_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7 THEN now() END, CASE WHEN $8 THEN now() END, CASE WHEN $9 THEN now() END)
     RETURNING *`,
    [id, user.email, user.phone, user.passwordHash, user.userMetadata, appMetadata, user.emailConfirmed, user.phoneConfirmed, user.invited ?? false],
  )
  const identityData = {
    sub: id,
    ...(user.email ? { email: user.email } : { phone: user.phone }),
    email_verified: user.emailConfirmed,
    phone_verified: user.phoneConfirmed,
  }
  await db.query('INSERT INTO auth.identities (provider_id, user_id, identity_data, provider) VALUES ($1::text, $1::uuid, $2, $3)', [id, identityData, provider])
  return rows[0]!
}

/** Sets columns of a user (names from this file only, never from input) and answers the new row. */
export async function updateUser(db: Queryable, id: string, changes: Partial<Record<keyof UserRow, unknown>>): Promise<UserRow> {
  const names = Object.keys(changes)
  const assignments = names.map((name, index) => `${name} = $${index + 2}`)
  const { rows } = await db.query<UserRow>(
    `UPDATE auth.users SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`,
    [id, ...names.map((name) => changes[name as keyof UserRow])],
  )
  if (!rows[0]) throw new Error(`User ${id} disappeared`)
  return rows[0]
}
