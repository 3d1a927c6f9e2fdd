import type { AuthDeps, AuthRequest, AuthResponse } from '../request.js'
import { creationOptions, descriptor, newCeremony, parseRegistration, relyingParty, userHandle, verifyCreation } from '../webauthn.js'
import {
  ceremonyAnswer,
  challengeExpired,
  challengeNotFound,
  credentialExists,
  invalidCredentialResponse,
  passkeyManager,
  tooManyPasskeys,
  verificationFailed,
} from './common.js'
import { auditPasskey, consumeChallenge, countPasskeys, insertChallenge, insertPasskey, MAX_PASSKEYS_PER_USER, passkeyByCredentialId, userPasskeys } from './store.js'

/** Passkeys are discoverable credentials: the authenticator must keep the user handle (GoTrue's getPasskeyWebAuthn). */
const PASSKEY_SELECTION = { requireResidentKey: true, residentKey: 'required', userVerification: 'preferred' }

/** GoTrue names a passkey after its authenticator model (AAGUID) when it knows it; this platform has no such table. */
const DEFAULT_NAME = 'Passkey'

const MANAGE = { notAnonymous: true, notSso: true, aal: true }

/**
 * POST /passkeys/registration/options: creation options for a new passkey of the signed-in user, the user's current
 * passkeys excluded (an authenticator holding one does not make a second), and the ceremony kept server-side for
 * five minutes.
 */
export async function registrationOptions(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const rp = relyingParty(request.settings)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await passkeyManager(db, request, MANAGE)
    const existing = await userPasskeys(db, user.id)
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys()
    const handle = userHandle(user.id)
    const ceremony = newCeremony(rp, handle)
    const name = user.email || user.phone || ''
    const metaName = user.raw_user_meta_data?.name
    const options = creationOptions(
      rp,
      ceremony,
      { handle, name, displayName: typeof metaName === 'string' && metaName ? metaName : name },
      existing.map((passkey) => descriptor(passkey.credential_id)),
      PASSKEY_SELECTION,
    )
    const challengeId = await insertChallenge(db, user.id, 'registration', ceremony)
    return { status: 200, body: { challenge_id: challengeId, options, expires_at: Math.floor(ceremony.expiresAt.getTime() / 1000) } }
  })
}

/**
 * POST /passkeys/registration/verify: the authenticator's answer to one of the user's own registration ceremonies.
 * The ceremony is taken out first, in its own transaction, so it answers once whatever follows; the attestation is
 * verified outside any transaction; then the passkey is stored under the user's lock (cap and unique credential id
 * checked again there, as two ceremonies may end at once).
 */
export async function registrationVerify(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const rp = relyingParty(request.settings)
  const { ref } = request.project
  const taken = await deps.databases.transaction(ref, async (db) => {
    const { user } = await passkeyManager(db, request, MANAGE)
    const answer = ceremonyAnswer(request.body)
    return { answer, ceremony: await consumeChallenge(db, answer.challengeId, 'registration', user.id) }
  })
  if (!taken.ceremony) throw challengeNotFound()
  if (taken.ceremony.expired) throw challengeExpired()
  const response = parseRegistration(taken.answer.credential)
  if (!response) throw invalidCredentialResponse()
  const credential = await verifyCreation(taken.ceremony.data, rp.origins, response)
  if (!credential) throw verificationFailed()
  return deps.databases.transaction(ref, async (db) => {
    const { user } = await passkeyManager(db, request, MANAGE)
    if ((await countPasskeys(db, user.id)) >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys()
    if (await passkeyByCredentialId(db, credential.credentialId)) throw credentialExists()
    let passkey
    try {
      passkey = await insertPasskey(db, user.id, credential, DEFAULT_NAME)
    } catch (error) {
      // The same credential stored by another request between the check and the insert.
      if ((error as { code?: unknown }).code === '23505') throw credentialExists()
      throw error
    }
    await auditPasskey(db, 'passkey_created', user, request.ip, { passkey_id: passkey.id })
    return {
      status: 200,
      body: { id: passkey.id, ...(passkey.friendly_name ? { friendly_name: passkey.friendly_name } : {}), created_at: passkey.created_at.toISOString() },
    }
  })
}
