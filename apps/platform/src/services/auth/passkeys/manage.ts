import { AuthError, userNotFound, validationFailed } from '../errors.js'
import type { AuthDeps, AuthRequest, AuthResponse } from '../request.js'
import { findUserById } from '../users.js'
import { requireAdmin } from '../handlers/admin.js'
import { currentUser } from '../handlers/user.js'
import { badJsonField, passkeyManager, passkeyNotFound } from './common.js'
import { auditPasskey, isUuid, ownedPasskey, passkeyJson, userPasskeys } from './store.js'

/** GoTrue's limit on a passkey's name, in bytes (Go's len). */
const MAX_NAME_BYTES = 120

/** `/passkeys/{id}`: the passkey id. */
const pathPasskeyId = (path: string): string => path.split('/')[2] ?? ''

/** GET /passkeys: the signed-in user's passkeys, oldest first. */
export async function listPasskeys(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await currentUser(db, request)
    return { status: 200, body: (await userPasskeys(db, user.id)).map(passkeyJson) }
  })
}

/** PATCH /passkeys/{id}: renames one of the user's passkeys (another user's is answered as a missing one). */
export async function updatePasskey(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await currentUser(db, request)
    const id = pathPasskeyId(request.path)
    if (!isUuid(id)) throw passkeyNotFound()
    const name = request.body.friendly_name
    if (name !== undefined && name !== null && typeof name !== 'string') throw badJsonField('friendly_name', 'string')
    if (!name) throw validationFailed('friendly_name is required')
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw validationFailed('friendly_name must be 120 characters or less')
    const passkey = await ownedPasskey(db, user.id, id)
    if (!passkey) throw passkeyNotFound()
    const { rows } = await db.query(
      'UPDATE auth.webauthn_credentials SET friendly_name = $2, updated_at = now() WHERE id = $1 RETURNING *',
      [passkey.id, name],
    )
    await auditPasskey(db, 'passkey_updated', user, request.ip, { passkey_id: passkey.id })
    return { status: 200, body: passkeyJson(rows[0]) }
  })
}

/** DELETE /passkeys/{id}: removes one of the user's passkeys; with MFA on, only from an aal2 session. 204, no body. */
export async function deletePasskey(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await passkeyManager(db, request, { aal: true })
    const id = pathPasskeyId(request.path)
    const passkey = isUuid(id) ? await ownedPasskey(db, user.id, id) : null
    if (!passkey) throw passkeyNotFound()
    await db.query('DELETE FROM auth.webauthn_credentials WHERE id = $1', [passkey.id])
    await auditPasskey(db, 'passkey_deleted', user, request.ip, { passkey_id: passkey.id })
    return { status: 204 }
  })
}

/** `/admin/users/{user_id}/passkeys[/{passkey_id}]`: both ids. */
function adminPath(path: string): { userId: string; passkeyId: string } {
  const [, , , userId = '', , passkeyId = ''] = path.split('/')
  return { userId, passkeyId }
}

/** GoTrue's loadUser: a path id that is no UUID, then a user that does not exist. */
async function adminUser(db: Parameters<typeof findUserById>[0], userId: string) {
  if (!isUuid(userId)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID')
  const user = await findUserById(db, userId.toLowerCase())
  if (!user) throw userNotFound()
  return user
}

/** GET /admin/users/{id}/passkeys (service role): the user's passkeys. */
export async function adminListPasskeys(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await adminUser(db, adminPath(request.path).userId)
    return { status: 200, body: (await userPasskeys(db, user.id)).map(passkeyJson) }
  })
}

/** DELETE /admin/users/{id}/passkeys/{passkey_id} (service role): e.g. for a user who lost the device. 204, no body. */
export async function adminDeletePasskey(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const { userId, passkeyId } = adminPath(request.path)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await adminUser(db, userId)
    const passkey = isUuid(passkeyId) ? await ownedPasskey(db, user.id, passkeyId) : null
    if (!passkey) throw passkeyNotFound()
    await db.query('DELETE FROM auth.webauthn_credentials WHERE id = $1', [passkey.id])
    await auditPasskey(db, 'passkey_deleted', user, request.ip, { user_id: user.id, passkey_id: passkey.id })
    return { status: 204 }
  })
}
