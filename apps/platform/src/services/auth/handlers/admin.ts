import type pg from 'pg'
import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, notAdmin, userNotFound, validationFailed } from '../errors.js'
import { checkedPassword, mergedMetadata, Metadata, normalEmail, normalPhone, pathUserId } from '../input.js'
import { sendEmailToken } from '../one-time.js'
import { hashPassword } from '../passwords.js'
import { parseBody, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { findUserByEmail, findUserById, findUserByPhone, insertUser, updateUser, userJson, type UserRow } from '../users.js'

/** The admin API is for the service key (or a JWT with its role) only, as in GoTrue. */
export function requireAdmin(request: AuthRequest): void {
  if (request.claims?.role !== 'service_role') throw notAdmin()
}

const MAX_PER_PAGE = 1_000

/** GET /admin/users?page&per_page: newest first, with `x-total-count` and a `link` header as GoTrue pages. */
export async function listUsers(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const page = positiveInt(request.query.get('page'), 1, 'page')
  const perPage = Math.min(positiveInt(request.query.get('per_page'), 50, 'per_page'), MAX_PER_PAGE)
  // `filter` (GoTrue's): part of the email, phone or name, case-insensitive.
  const filter = (request.query.get('filter') ?? '').slice(0, 255)
  const where = `deleted_at IS NULL AND ($1 = '' OR email ILIKE '%' || $1 || '%' OR phone ILIKE '%' || $1 || '%'
    OR raw_user_meta_data ->> 'full_name' ILIKE '%' || $1 || '%' OR id::text = $1)`
  const pattern = filter.replace(/[\\%_]/g, (c) => `\\${c}`)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const total = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM auth.users WHERE ${where}`, [pattern])).rows[0]!.n)
    const { rows } = await db.query<UserRow>(`SELECT * FROM auth.users WHERE ${where} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [
      pattern,
      perPage,
      (page - 1) * perPage,
    ])
    const users = []
    for (const row of rows) users.push(await userJson(db, row))
    const last = Math.max(1, Math.ceil(total / perPage))
    const url = (n: number) => `<${request.publicBase}/auth/v1/admin/users?page=${n}&per_page=${perPage}>`
    const links = [...(page < last ? [`${url(page + 1)}; rel="next"`] : []), `${url(last)}; rel="last"`]
    return { status: 200, body: { users, aud: 'authenticated' }, headers: { 'x-total-count': String(total), link: links.join(', ') } }
  })
}

const AdminUserBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.unknown().optional(),
  email_confirm: z.boolean().optional(),
  phone_confirm: z.boolean().optional(),
  user_metadata: Metadata.optional(),
  app_metadata: Metadata.optional(),
  ban_duration: z.string().max(32).optional(),
  role: z.string().max(63).optional(),
})

/** POST /admin/users: a user with an email or phone, optionally confirmed and with a password. */
export async function createUser(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const body = parseBody(AdminUserBody, request.body)
  if (!body.email && !body.phone) throw validationFailed('Unable to validate email address: invalid format')
  const email = body.email ? normalEmail(body.email) : null
  const phone = body.phone ? normalPhone(body.phone) : null
  const passwordHash = body.password === undefined ? null : await hashPassword(checkedPassword(body.password, request.settings))
  return deps.databases.transaction(request.project.ref, async (db) => {
    await refuseTaken(db, email, phone, null)
    let user = await insertUser(db, {
      email,
      phone,
      passwordHash,
      userMetadata: body.user_metadata ?? {},
      appMetadata: body.app_metadata,
      emailConfirmed: Boolean(email && body.email_confirm),
      phoneConfirmed: Boolean(phone && body.phone_confirm),
    })
    if (body.ban_duration) user = await updateUser(db, user.id, { banned_until: banUntil(body.ban_duration) })
    await audit(db, 'user_signedup', user, request.ip, { provider: email ? 'email' : 'phone', by: 'admin' })
    return { status: 200, body: await userJson(db, user) }
  })
}

export async function getUserById(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await findUserById(db, pathUserId(request.path) ?? '')
    if (!user) throw userNotFound()
    return { status: 200, body: await userJson(db, user) }
  })
}

/** PUT /admin/users/{id}: any field, with no confirmation step. */
export async function updateUserById(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const body = parseBody(AdminUserBody, request.body)
  const passwordHash = body.password === undefined ? undefined : await hashPassword(checkedPassword(body.password, request.settings))
  return deps.databases.transaction(request.project.ref, async (db) => {
    let user = await findUserById(db, pathUserId(request.path) ?? '', true)
    if (!user) throw userNotFound()
    const email = body.email === undefined ? undefined : normalEmail(body.email)
    const phone = body.phone === undefined ? undefined : normalPhone(body.phone)
    await refuseTaken(db, email ?? null, phone ?? null, user.id)
    const changes: Partial<Record<keyof UserRow, unknown>> = {}
    if (email !== undefined) changes.email = email
    if (phone !== undefined) changes.phone = phone
    if (passwordHash !== undefined) changes.encrypted_password = passwordHash
    if (body.email_confirm) changes.email_confirmed_at = user.email_confirmed_at ?? new Date()
    if (body.phone_confirm) changes.phone_confirmed_at = user.phone_confirmed_at ?? new Date()
    if (body.user_metadata) changes.raw_user_meta_data = mergedMetadata(user.raw_user_meta_data, body.user_metadata)
    if (body.app_metadata) changes.raw_app_meta_data = mergedMetadata(user.raw_app_meta_data, body.app_metadata)
    if (body.ban_duration) changes.banned_until = banUntil(body.ban_duration)
    if (Object.keys(changes).length) user = await updateUser(db, user.id, changes)
    // A ban or a new password ends the user's sessions.
    if (changes.banned_until || changes.encrypted_password) await db.query('DELETE FROM auth.sessions WHERE user_id = $1', [user.id])
    await audit(db, 'user_modified', user, request.ip, { by: 'admin' })
    return { status: 200, body: await userJson(db, user) }
  })
}

/** DELETE /admin/users/{id}: the user, its identities and sessions (cascade). */
export async function deleteUserById(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await findUserById(db, pathUserId(request.path) ?? '', true)
    if (!user) throw userNotFound()
    await db.query('DELETE FROM auth.users WHERE id = $1', [user.id])
    await audit(db, 'user_deleted', user, request.ip)
    return { status: 200, body: {} }
  })
}

const InviteBody = z.object({ email: z.string(), data: Metadata.optional() })

/** POST /invite (service key): an account waiting for its owner, who gets a link to accept it. */
export async function invite(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const body = parseBody(InviteBody, request.body)
  const email = normalEmail(body.email)
  return deps.databases.transaction(request.project.ref, async (db) => {
    let user = await findUserByEmail(db, email)
    if (user?.email_confirmed_at) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
    user ??= await insertUser(db, { email, phone: null, passwordHash: null, userMetadata: body.data ?? {}, emailConfirmed: false, phoneConfirmed: false, invited: true })
    user = await sendEmailToken(db, deps, request, user, 'invite', email)
    await audit(db, 'user_invited', user, request.ip)
    return { status: 200, body: await userJson(db, user) }
  })
}

async function refuseTaken(db: pg.PoolClient, email: string | null, phone: string | null, self: string | null): Promise<void> {
  const byEmail = email ? await findUserByEmail(db, email) : null
  if (byEmail && byEmail.id !== self) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
  const byPhone = phone ? await findUserByPhone(db, phone) : null
  if (byPhone && byPhone.id !== self) throw new AuthError(422, 'phone_exists', 'A user with this phone number has already been registered')
}

/** `none` lifts a ban; otherwise a Go duration such as `24h`, `90m` or `1h30m`. */
function banUntil(duration: string): Date | null {
  if (duration === 'none') return null
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 }
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)]
  if (!parts.length || parts.map((part) => part[0]).join('') !== duration) {
    throw validationFailed('ban_duration: use a duration such as 24h, 90m or none')
  }
  return new Date(Date.now() + parts.reduce((sum, part) => sum + Number(part[1]) * units[part[2]!]!, 0))
}

function positiveInt(value: string | null, fallback: number, name: string): number {
  if (value === null || value === '') return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw validationFailed(`${name} must be a positive integer`)
  return number
}
