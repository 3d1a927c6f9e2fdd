import type { Queryable } from '../../store/db.js'

/** An auth.mfa_factors row, as the service reads it. */
export interface FactorRow {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: 'totp' | 'phone' | 'webauthn'
  status: 'unverified' | 'verified'
  created_at: Date
  updated_at: Date
  secret: string | null
  phone: string | null
  last_challenged_at: Date | null
  /** A WebAuthn factor's credential (go-webauthn's JSON), its authenticator model, and its last ceremony. */
  web_authn_credential: unknown
  web_authn_aaguid: string | null
  last_webauthn_challenge_data: unknown
}

/** The amr method a verified factor of this type adds to a session (GoTrue's AuthenticationMethod names). */
export function factorMethod(type: FactorRow['factor_type']): string {
  return type === 'phone' ? 'mfa/phone' : type === 'webauthn' ? 'mfa/webauthn' : 'totp'
}

/** A factor as GoTrue's JSON shows it (in the user's `factors`, and the admin API's lists). The secret never is. */
export function factorJson(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    ...(factor.friendly_name ? { friendly_name: factor.friendly_name } : {}),
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: factor.created_at.toISOString(),
    updated_at: factor.updated_at.toISOString(),
    phone: factor.phone ?? '',
    last_challenged_at: factor.last_challenged_at ? factor.last_challenged_at.toISOString() : null,
    // GoTrue's omitempty members of a WebAuthn factor (the credential itself is never shown).
    ...(factor.web_authn_aaguid ? { web_authn_aaguid: factor.web_authn_aaguid } : {}),
    ...(factor.last_webauthn_challenge_data ? { last_webauthn_challenge_data: factor.last_webauthn_challenge_data } : {}),
  }
}

export async function userFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await db.query<FactorRow>('SELECT * FROM auth.mfa_factors WHERE user_id = $1 ORDER BY created_at, id', [userId])
  return rows
}

/** The user's factor with that id; null for another user's factor, as for a missing one (GoTrue's FindOwnedFactorByID). */
export async function findOwnedFactor(db: Queryable, userId: string, factorId: string, lock = false): Promise<FactorRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(factorId)) return null
  const { rows } = await db.query<FactorRow>(`SELECT * FROM auth.mfa_factors WHERE id = $1 AND user_id = $2${lock ? ' FOR UPDATE' : ''}`, [factorId, userId])
  return rows[0] ?? null
}

/** Whether the user has a verified factor while this session is still aal1 (GoTrue: HasMFAEnabled && !IsAAL2). */
export async function awaitingSecondFactor(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
  const { rows } = await db.query<{ waiting: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM auth.mfa_factors WHERE user_id = $1 AND status = 'verified')
        AND NOT EXISTS (SELECT 1 FROM auth.sessions WHERE id = $2 AND aal = 'aal2') AS waiting`,
    [userId, sessionId],
  )
  return rows[0]?.waiting ?? false
}
