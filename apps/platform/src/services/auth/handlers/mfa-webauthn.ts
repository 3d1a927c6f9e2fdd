import type pg from 'pg'
import { AuthError, validationFailed } from '../errors.js'
import { userFactors, type FactorRow } from '../factors.js'
import type { UserRow } from '../users.js'
import {
  creationOptions,
  descriptor,
  newCeremony,
  parseAssertion,
  parseRegistration,
  rawCredentialId,
  requestOptions,
  userHandle,
  verifyAssertion,
  verifyCreation,
  type CeremonyData,
  type NewCredential,
  type RelyingParty,
} from '../webauthn.js'

/*
 * The WebAuthn side of MFA factors (factor_type webauthn), as GoTrue's mfa.go runs it: a challenge of an unverified
 * factor is a creation ceremony ("create"), of a verified one a request ceremony ("request") for the factor's own
 * credential; verify checks the authenticator's answer against the ceremony kept in the challenge row. The credential
 * is kept in mfa_factors.web_authn_credential in go-webauthn's JSON (Go's base64 for bytes), so factors read the same
 * whichever server enrolled them.
 */

/** go-webauthn's Credential as GoTrue stores it (the fields this service writes and reads). */
interface StoredWebAuthnCredential {
  id: string
  publicKey: string
  attestationType: string
  transport: string[]
  flags: { userPresent: boolean; userVerified: boolean; backupEligible: boolean; backupState: boolean }
  authenticator: { AAGUID: string; signCount: number; cloneWarning: boolean; attachment: string }
}

function storedCredential(factor: FactorRow): StoredWebAuthnCredential | null {
  const value = factor.web_authn_credential as Partial<StoredWebAuthnCredential> | null
  if (!value || typeof value.id !== 'string' || typeof value.publicKey !== 'string') return null
  return value as StoredWebAuthnCredential
}

function credentialRecord(credential: NewCredential, attachment: string | null | undefined): StoredWebAuthnCredential {
  return {
    id: credential.credentialId.toString('base64'),
    publicKey: credential.publicKey.toString('base64'),
    attestationType: credential.attestationType,
    transport: credential.transports,
    flags: { userPresent: true, userVerified: credential.userVerified, backupEligible: credential.backupEligible, backupState: credential.backedUp },
    authenticator: {
      AAGUID: credential.aaguid ? Buffer.from(credential.aaguid.replaceAll('-', ''), 'hex').toString('base64') : '',
      signCount: credential.signCount,
      cloneWarning: false,
      attachment: attachment ?? '',
    },
  }
}

/** The credentials of the user's verified WebAuthn factors (GoTrue's User.WebAuthnCredentials). */
async function verifiedCredentials(db: pg.PoolClient, userId: string): Promise<{ factorId: string; credential: StoredWebAuthnCredential }[]> {
  const verified = (await userFactors(db, userId)).filter((factor) => factor.factor_type === 'webauthn' && factor.status === 'verified')
  return verified.flatMap((factor) => {
    const credential = storedCredential(factor)
    return credential ? [{ factorId: factor.id, credential }] : []
  })
}

/**
 * The ceremony of a WebAuthn factor's challenge: creation options for an unverified factor (the user's other
 * WebAuthn credentials excluded), request options naming the factor's credential for a verified one. Answers what the
 * challenge row keeps and the `webauthn` member of GoTrue's answer.
 */
export async function webAuthnChallenge(
  db: pg.PoolClient,
  rp: RelyingParty,
  user: UserRow,
  factor: FactorRow,
): Promise<{ data: CeremonyData; webauthn: { type: 'create' | 'request'; credential_options: { publicKey: Record<string, unknown> } } }> {
  if (factor.status !== 'verified') {
    const handle = userHandle(user.id)
    const ceremony = newCeremony(rp, handle)
    const exclude = (await verifiedCredentials(db, user.id)).map(({ credential }) => descriptor(Buffer.from(credential.id, 'base64'), ['usb', 'nfc']))
    const name = user.email ?? ''
    const publicKey = creationOptions(rp, ceremony, { handle, name, displayName: name }, exclude, { requireResidentKey: false, userVerification: 'preferred' })
    return { data: ceremony.data, webauthn: { type: 'create', credential_options: { publicKey } } }
  }
  const credential = storedCredential(factor)
  const id = credential ? Buffer.from(credential.id, 'base64') : null
  const ceremony = newCeremony(rp, userHandle(user.id), id ? [id] : [])
  const allow = id && credential ? [descriptor(id, credential.transport)] : []
  return { data: ceremony.data, webauthn: { type: 'request', credential_options: { publicKey: requestOptions(ceremony, allow) } } }
}

/** The `webauthn` member of a verify request: GoTrue's checks and texts, before the challenge is looked at. */
export function webAuthnAnswer(value: unknown): { type: 'create' | 'request'; response: unknown } {
  if (value === undefined || value === null) throw validationFailed('WebAuthn config required')
  const answer = typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  if (answer.type !== 'create' && answer.type !== 'request') throw validationFailed('WebAuthn type must be create or request')
  if (answer.credential_response === undefined || answer.credential_response === null) throw validationFailed('credential_response required')
  return { type: answer.type, response: answer.credential_response }
}

const failed = () => new AuthError(400, 'webauthn_verification_failed', 'Credential verification failed')

/**
 * Checks the answer to a WebAuthn factor's challenge and records it on the factor: a creation (unverified factor) stores
 * the new credential, which no other WebAuthn factor of the user may hold; a request (verified factor) must be signed
 * by the factor's own credential with a counter that moved on, which is stored. Refusals are returned.
 */
export async function checkWebAuthnAnswer(
  db: pg.PoolClient,
  factor: FactorRow,
  challenge: { id: string; created_at: Date; ip: string; web_authn_session_data: CeremonyData | null },
  origins: string[],
  answer: { type: 'create' | 'request'; response: unknown },
): Promise<AuthError | null> {
  const ceremony = challenge.web_authn_session_data
  if (!ceremony) return failed()
  if ((answer.type === 'create') !== (factor.status !== 'verified')) return failed()
  let credential: StoredWebAuthnCredential
  if (answer.type === 'create') {
    const response = parseRegistration(answer.response)
    if (!response) return validationFailed('Invalid credential_response')
    const created = await verifyCreation(ceremony, origins, response)
    if (!created) return failed()
    const taken = await verifiedCredentials(db, factor.user_id)
    if (taken.some(({ credential }) => Buffer.from(credential.id, 'base64').equals(created.credentialId))) {
      return new AuthError(422, 'webauthn_credential_exists', 'This credential is already registered')
    }
    credential = credentialRecord(created, response.authenticatorAttachment)
    await db.query('UPDATE auth.mfa_factors SET web_authn_aaguid = $2 WHERE id = $1', [factor.id, created.aaguid])
  } else {
    const response = parseAssertion(answer.response)
    if (!response) return validationFailed('Invalid credential_response')
    const stored = storedCredential(factor)
    if (!stored || !rawCredentialId(response).equals(Buffer.from(stored.id, 'base64'))) return failed()
    const verified = await verifyAssertion(ceremony, origins, response, {
      credentialId: Buffer.from(stored.id, 'base64'),
      publicKey: Buffer.from(stored.publicKey, 'base64'),
      signCount: stored.authenticator?.signCount ?? 0,
      transports: stored.transport ?? [],
    })
    if (!verified) return failed()
    credential = { ...stored, authenticator: { ...stored.authenticator, signCount: verified.signCount } }
  }
  const last = {
    challenge: {
      id: challenge.id,
      factor_id: factor.id,
      created_at: challenge.created_at.toISOString(),
      verified_at: null,
      ip_address: challenge.ip,
      web_authn_session_data: ceremony,
    },
    type: answer.type,
    credential_response: answer.response,
  }
  await db.query('UPDATE auth.mfa_factors SET web_authn_credential = $2, last_webauthn_challenge_data = $3, updated_at = now() WHERE id = $1', [
    factor.id,
    JSON.stringify(credential),
    JSON.stringify(last),
  ])
  return null
}
