import type { SigningKeyResponse } from '@stratum/contracts'

/** Texts of the JWT signing keys page. */
export const JWT_KEY_TEXTS = {
  writePermission: 'You need additional permissions to change the JWT signing keys of this project',
  legacyNotRevocable: "The legacy JWT secret cannot be revoked: the project's anon and service_role keys are signed with it",
  created: 'Created a new standby key',
  rotated: 'Signing key rotated',
  revoked: 'Signing key revoked',
  deleted: 'Revoked key deleted',
  movedToStandby: 'Key moved to standby',
  createFailed: 'Failed to create the standby key',
  rotateFailed: 'Failed to rotate the signing key',
  revokeFailed: 'Failed to revoke the signing key',
  deleteFailed: 'Failed to delete the revoked key',
  standbyFailed: 'Failed to move the key to standby',
} as const

export type SigningKey = SigningKeyResponse
export type SigningKeyStatus = SigningKey['status']

/** The legacy JWT secret: the one HS256 key, never published (the server offers no other shared-secret key). */
export const isLegacy = (key: SigningKey) => key.algorithm === 'HS256'

export const STATUS_LABELS: Record<SigningKeyStatus, string> = {
  in_use: 'Current',
  standby: 'Standby',
  previously_used: 'Previously used',
  revoked: 'Revoked',
}

/** What each algorithm is, in a word a reader knows. */
export const ALGORITHM_LABELS: Record<SigningKey['algorithm'], string> = {
  ES256: 'ECC (P-256)',
  RS256: 'RSA',
  EdDSA: 'Ed25519',
  HS256: 'Shared secret',
}

/** The first block of a key id: enough to tell keys apart in a sentence. */
export const shortId = (key: SigningKey) => key.id.slice(0, 8)
