import { audit } from '../audit.js'
import { AuthError, rateLimited } from '../errors.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { startSession } from '../sessions.js'
import { findUserById } from '../users.js'
import { newCeremony, parseAssertion, rawCredentialId, relyingParty, requestOptions, verifyAssertion } from '../webauthn.js'
import { ceremonyAnswer, challengeExpired, challengeNotFound, invalidCredentialResponse, verificationFailed } from './common.js'
import { consumeChallenge, insertChallenge, isUuid, passkeyByCredentialId } from './store.js'

/**
 * POST /passkeys/authentication/options: a discoverable sign-in ceremony (no user named, no allowed credentials: the
 * authenticator offers the passkeys it holds for the relying party). Counted per address like the other sign-ins,
 * since each one stores a row.
 */
export async function authenticationOptions(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const { ref } = request.project
  if (!(await deps.limiter.take(ref, `passkey:${ref}:ip:${request.ip}`, request.settings.rate_limit_otp, FIVE_MINUTES))) throw rateLimited()
  const ceremony = newCeremony(relyingParty(request.settings))
  const challengeId = await deps.databases.transaction(ref, (db) => insertChallenge(db, null, 'authentication', ceremony))
  return {
    status: 200,
    body: { challenge_id: challengeId, options: requestOptions(ceremony, []), expires_at: Math.floor(ceremony.expiresAt.getTime() / 1000) },
  }
}

/**
 * POST /passkeys/authentication/verify: the assertion of a passkey for a sign-in ceremony. The ceremony is taken out
 * first (it answers once); the user comes from the assertion's user handle and must own the credential it names; the
 * signature and counter are checked with the stored key; then a session starts as for any other sign-in (amr
 * `passkey`, aal1: a passkey is one factor here as in GoTrue).
 */
export async function authenticationVerify(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const { ref } = request.project
  const answer = ceremonyAnswer(request.body)
  if (!(await deps.limiter.take(ref, `passkey-verify:${ref}:ip:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES))) throw rateLimited()
  const ceremony = await deps.databases.transaction(ref, (db) => consumeChallenge(db, answer.challengeId, 'authentication', null))
  if (!ceremony) throw challengeNotFound()
  if (ceremony.expired) throw challengeExpired()
  const response = parseAssertion(answer.credential)
  if (!response) throw invalidCredentialResponse()
  const { origins } = relyingParty(request.settings)
  const handle = response.response.userHandle ? Buffer.from(response.response.userHandle, 'base64url').toString('utf8') : ''
  return deps.databases.transaction(ref, async (db) => {
    const user = isUuid(handle) ? await findUserById(db, handle.toLowerCase()) : null
    // The passkey row is locked until its counter is written: two assertions of one credential are checked in turn.
    const passkey = user ? await passkeyByCredentialId(db, rawCredentialId(response)) : null
    if (!user || !passkey || passkey.user_id !== user.id) throw verificationFailed()
    const verified = await verifyAssertion(ceremony.data, origins, response, {
      credentialId: passkey.credential_id,
      publicKey: passkey.public_key,
      signCount: Number(passkey.sign_count),
      transports: passkey.transports,
    })
    if (!verified) throw verificationFailed()
    if (user.email && !user.email_confirmed_at) throw new AuthError(403, 'email_not_confirmed', 'Email not confirmed')
    if (user.phone && !user.phone_confirmed_at) throw new AuthError(403, 'phone_not_confirmed', 'Phone not confirmed')
    if (user.banned_until && user.banned_until > new Date()) throw new AuthError(403, 'user_banned', 'User is banned')
    await db.query('UPDATE auth.webauthn_credentials SET sign_count = $2, last_used_at = now(), updated_at = now() WHERE id = $1', [passkey.id, verified.signCount])
    await audit(db, 'login', user, request.ip, { passkey_id: passkey.id })
    return { status: 200, body: await startSession(db, user, 'passkey', sessionContext(request)) }
  })
}
