import type pg from 'pg'
import { AuthError, badJson, validationFailed } from '../errors.js'
import { awaitingSecondFactor } from '../factors.js'
import type { AuthRequest } from '../request.js'
import type { UserRow } from '../users.js'
import { currentUser } from '../handlers/user.js'
import { isUuid } from './store.js'

/* GoTrue's refusals of the passkey routes (apierrors: passkey and WebAuthn protocol-level codes), same status and text. */
export const passkeysDisabled = () => new AuthError(404, 'passkey_disabled', 'Passkeys are disabled')
export const passkeyNotFound = () => new AuthError(404, 'validation_failed', 'Passkey not found')
export const tooManyPasskeys = () => new AuthError(422, 'too_many_passkeys', 'Maximum number of passkeys reached')
export const challengeNotFound = () => new AuthError(400, 'webauthn_challenge_not_found', 'Challenge not found or already used')
export const challengeExpired = () => new AuthError(400, 'webauthn_challenge_expired', 'Challenge has expired')
export const invalidCredentialResponse = () => new AuthError(400, 'webauthn_verification_failed', 'Invalid credential response')
export const verificationFailed = () => new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed')
export const credentialExists = () => new AuthError(422, 'webauthn_credential_exists', 'This credential is already registered')

/** The body of both ceremonies' verify step: the ceremony's id and the authenticator's answer (GoTrue's checks, in its order). */
export function ceremonyAnswer(body: Record<string, unknown>): { challengeId: string; credential: unknown } {
  const { challenge_id: challengeId, credential } = body
  if (challengeId !== undefined && challengeId !== null && typeof challengeId !== 'string') {
    throw badJsonField('challenge_id', 'string')
  }
  if (!challengeId) throw validationFailed('challenge_id is required')
  if (credential === undefined || credential === null) throw validationFailed('credential is required')
  if (!isUuid(challengeId)) throw validationFailed('challenge_id must be a valid UUID')
  return { challengeId: challengeId.toLowerCase(), credential }
}

/** GoTrue's answer to a field of the wrong JSON type (its decoder's error, under bad_json). */
export function badJsonField(field: string, type: string): AuthError {
  const error = badJson()
  return new AuthError(error.status, error.code, `Could not parse request body as JSON: field ${field} must be a ${type}`)
}

/**
 * The signed-in user who manages their passkeys (GoTrue's requireAuthentication, requireNotAnonymous and
 * requirePasskeyManagementAAL): a session that exists; not an anonymous user; not an SSO user when registering; and,
 * for a user with a verified MFA factor, an aal2 session (else a stolen password could add or remove passkeys).
 * The user's row is locked: one user's passkey changes run one at a time, so the per-user cap holds.
 */
export async function passkeyManager(
  db: pg.PoolClient,
  request: AuthRequest,
  checks: { notAnonymous?: boolean; notSso?: boolean; aal?: boolean },
): Promise<{ user: UserRow; sessionId: string }> {
  const { user, sessionId } = await currentUser(db, request, true)
  if (checks.notAnonymous && request.claims?.is_anonymous === true) {
    throw new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions')
  }
  // auth.users has the column (GoTrue's); the service's UserRow names only what the other routes read.
  if (checks.notSso && (user as UserRow & { is_sso_user?: boolean }).is_sso_user) {
    throw new AuthError(422, 'validation_failed', 'SSO users cannot register passkeys')
  }
  if (checks.aal && (await awaitingSecondFactor(db, user.id, sessionId))) {
    throw new AuthError(403, 'insufficient_aal', 'AAL2 session is required to manage passkeys when MFA is enabled')
  }
  return { user, sessionId }
}
