import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../store/db.js'
import type { UserRow } from './users.js'

/** GoTrue's audit actions that this service records. */
export type AuditAction =
  | 'user_signedup'
  | 'user_confirmation_requested'
  | 'user_invited'
  | 'user_recovery_requested'
  | 'user_updated_password'
  | 'user_modified'
  | 'user_deleted'
  | 'login'
  | 'logout'
  | 'token_refreshed'
  | 'factor_in_progress'
  | 'challenge_created'
  | 'verification_attempted'
  | 'factor_unenrolled'
  | 'factor_deleted'
  | 'user_reauthenticate_requested'
  | 'identity_unlinked'

/** GoTrue's log type of the factor actions. */
const FACTOR_ACTIONS = new Set<AuditAction>(['factor_in_progress', 'challenge_created', 'verification_attempted', 'factor_unenrolled', 'factor_deleted'])

/**
 * One event in auth.audit_log_entries, in GoTrue's payload shape (actor, action, log type), in the
 * same transaction as what it records. The request itself is in the gateway's request log.
 */
export async function audit(db: Queryable, action: AuditAction, actor: Pick<UserRow, 'id' | 'email' | 'phone'>, ip: string | null, traits: Record<string, unknown> = {}): Promise<void> {
  const payload = {
    actor_id: actor.id,
    actor_username: actor.email ?? actor.phone ?? '',
    actor_via_sso: false,
    action,
    log_type: FACTOR_ACTIONS.has(action) ? 'factor' : action === 'login' || action === 'logout' || action === 'token_refreshed' ? 'token' : action.startsWith('user_') || action.startsWith('identity_') ? 'user' : 'account',
    traits,
  }
  await db.query('INSERT INTO auth.audit_log_entries (id, payload, ip_address) VALUES ($1, $2, $3)', [randomUUID(), JSON.stringify(payload), (ip ?? '').slice(0, 64)])
}
