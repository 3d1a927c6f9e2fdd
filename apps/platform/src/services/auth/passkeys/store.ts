import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../../store/db.js'
import type { UserRow } from '../users.js'
import type { Ceremony, CeremonyData, NewCredential } from '../webauthn.js'

/** An auth.webauthn_credentials row: one passkey. */
export interface PasskeyRow {
  id: string
  user_id: string
  credential_id: Buffer
  public_key: Buffer
  attestation_type: string
  aaguid: string | null
  sign_count: string
  transports: string[]
  backup_eligible: boolean
  backed_up: boolean
  friendly_name: string
  created_at: Date
  updated_at: Date
  last_used_at: Date | null
}

/** GoTrue's cap on passkeys per user (passkey max_passkeys_per_user). */
export const MAX_PASSKEYS_PER_USER = 10

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string): boolean => UUID.test(value)

/** A passkey as GoTrue's list and management answers show it (PasskeyListItem: empty name and unused time left out). */
export function passkeyJson(row: PasskeyRow): Record<string, unknown> {
  return {
    id: row.id,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    created_at: row.created_at.toISOString(),
    ...(row.last_used_at ? { last_used_at: row.last_used_at.toISOString() } : {}),
  }
}

export async function userPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await db.query<PasskeyRow>('SELECT * FROM auth.webauthn_credentials WHERE user_id = $1 ORDER BY created_at, id', [userId])
  return rows
}

export async function countPasskeys(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.webauthn_credentials WHERE user_id = $1', [userId])
  return rows[0]!.n
}

/** The user's passkey with that id; null for another user's, as for a missing one. */
export async function ownedPasskey(db: Queryable, userId: string, id: string): Promise<PasskeyRow | null> {
  if (!isUuid(id)) return null
  const { rows } = await db.query<PasskeyRow>('SELECT * FROM auth.webauthn_credentials WHERE id = $1 AND user_id = $2 FOR UPDATE', [id, userId])
  return rows[0] ?? null
}

export async function passkeyByCredentialId(db: Queryable, credentialId: Buffer): Promise<PasskeyRow | null> {
  const { rows } = await db.query<PasskeyRow>('SELECT * FROM auth.webauthn_credentials WHERE credential_id = $1 FOR UPDATE', [credentialId])
  return rows[0] ?? null
}

/** Stores a verified credential; a credential id registered before (by anyone) is refused by the unique index (23505). */
export async function insertPasskey(db: Queryable, userId: string, credential: NewCredential, friendlyName: string): Promise<PasskeyRow> {
  const { rows } = await db.query<PasskeyRow>(
    `INSERT INTO auth.webauthn_credentials
       (id, user_id, credential_id, public_key, attestation_type, aaguid, sign_count, transports, backup_eligible, backed_up, friendly_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [
      randomUUID(),
      userId,
      credential.credentialId,
      credential.publicKey,
      credential.attestationType,
      credential.aaguid,
      credential.signCount,
      JSON.stringify(credential.transports),
      credential.backupEligible,
      credential.backedUp,
      friendlyName,
    ],
  )
  return rows[0]!
}

export type ChallengeType = 'registration' | 'authentication'

/** Stores a ceremony's server side; old ones that were never answered go at the same time. */
export async function insertChallenge(db: Queryable, userId: string | null, type: ChallengeType, ceremony: Ceremony): Promise<string> {
  await db.query(`DELETE FROM auth.webauthn_challenges WHERE expires_at < now() - interval '1 hour'`)
  const id = randomUUID()
  await db.query('INSERT INTO auth.webauthn_challenges (id, user_id, challenge_type, session_data, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    id,
    userId,
    type,
    JSON.stringify(ceremony.data),
    ceremony.expiresAt,
  ])
  return id
}

/**
 * Takes the ceremony out of the table (GoTrue's ConsumeWebAuthnChallengeByID): of that type, for that user (or for
 * nobody: a sign-in), so that it answers once whatever the outcome. Null when there is none; `expired` says whether
 * its time was up.
 */
export async function consumeChallenge(db: Queryable, id: string, type: ChallengeType, userId: string | null): Promise<{ data: CeremonyData; expired: boolean } | null> {
  const { rows } = await db.query<{ session_data: CeremonyData; expired: boolean }>(
    `DELETE FROM auth.webauthn_challenges WHERE id = $1 AND challenge_type = $2 AND user_id IS NOT DISTINCT FROM $3::uuid
     RETURNING session_data, expires_at < now() AS expired`,
    [id, type, userId],
  )
  return rows[0] ? { data: rows[0].session_data, expired: rows[0].expired } : null
}

/** GoTrue's passkey audit actions, in its log type `user`. */
export async function auditPasskey(
  db: Queryable,
  action: 'passkey_created' | 'passkey_updated' | 'passkey_deleted',
  actor: Pick<UserRow, 'id' | 'email' | 'phone'>,
  ip: string | null,
  traits: Record<string, unknown>,
): Promise<void> {
  const payload = { actor_id: actor.id, actor_username: actor.email ?? actor.phone ?? '', actor_via_sso: false, action, log_type: 'user', traits }
  await db.query('INSERT INTO auth.audit_log_entries (id, payload, ip_address) VALUES ($1, $2, $3)', [randomUUID(), JSON.stringify(payload), (ip ?? '').slice(0, 64)])
}
