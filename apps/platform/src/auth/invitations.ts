/**
 * Invitations: the only way into an organization (docs/ARCHITECTURE.md "Accounts, invitations, permissions").
 *
 * Why accepting always needs the link: there is no mail server, so no account's email was ever
 * verified. Anyone can open an account under `newhire@corp` by inviting that address to an
 * organization of their own and opening the link themselves. If invitations addressed to an email
 * could be accepted by whoever holds an account with that email, such a squatter would accept the
 * real organization's invitation too (account pre-hijacking). The link is handed over by the
 * inviter to the person they mean, so holding it is the proof; the account's email must match as
 * well, so a link cannot be used from another account.
 */
import { randomBytes } from 'node:crypto'
import { INVITATION_DAYS, INVITATION_TEXTS, type Invitation, type OrgRole } from '@stratum/contracts'
import { forbidden, notFound, conflict, gone } from '../errors.js'
import type { Queryable } from '../store/db.js'
import { hashToken } from './secrets.js'
import { findUserByEmail, type UserRow } from './users.js'

export interface InvitationRow {
  id: string
  organization_id: string
  email: string
  role: OrgRole
  invited_by: string | null
  created_at: Date
  expires_at: Date
  accepted_at: Date | null
}

/** An invitation with what the people involved see of it: the organization's name, the inviter's email. */
export interface InvitationView extends InvitationRow {
  organization_slug: string
  organization_name: string
  inviter_email: string | null
}

const SELECT_VIEW = `
  SELECT i.id, i.organization_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at, i.accepted_at,
         o.slug AS organization_slug, o.name AS organization_name, u.email AS inviter_email
  FROM invitations i
  JOIN organizations o ON o.id = i.organization_id
  LEFT JOIN users u ON u.id = i.invited_by`

export const isExpired = (row: Pick<InvitationRow, 'expires_at'>, now = new Date()) => row.expires_at.getTime() <= now.getTime()

export function toInvitation(row: InvitationView): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.inviter_email,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    expired: isExpired(row),
  }
}

/** 32 random bytes: the secret of the link. Only its SHA-256 is stored. */
export function newInvitationToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * A new invitation of `email` (already normalised by the contract) to an organization. An address
 * that is already a member, or has an open invitation that still works, is refused; an expired one
 * is replaced, so re-inviting after expiry needs no revocation first.
 */
export async function createInvitation(
  db: Queryable,
  input: { organizationId: string; email: string; role: OrgRole; invitedBy: string },
): Promise<{ invitation: InvitationView; token: string }> {
  const member = await db.query(
    `SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email = $2`,
    [input.organizationId, input.email],
  )
  if (member.rowCount) throw conflict(`${input.email} is already a member of this organization`)
  await db.query(
    `DELETE FROM invitations WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL AND expires_at <= now()`,
    [input.organizationId, input.email],
  )
  const token = newInvitationToken()
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO invitations (organization_id, email, role, invited_by, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
     ON CONFLICT (organization_id, email) WHERE accepted_at IS NULL DO NOTHING
     RETURNING id`,
    [input.organizationId, input.email, input.role, input.invitedBy, hashToken(token), INVITATION_DAYS],
  )
  if (!rows[0]) throw conflict(`${input.email} already has an open invitation to this organization: revoke it to create a new link`)
  return { invitation: (await findInvitationById(db, rows[0].id))!, token }
}

export async function findInvitationById(db: Queryable, id: string): Promise<InvitationView | null> {
  const { rows } = await db.query<InvitationView>(`${SELECT_VIEW} WHERE i.id = $1`, [id])
  return rows[0] ?? null
}

/** Open (not yet accepted) invitations of an organization, expired ones included so they can be seen and replaced. */
export async function listOrganizationInvitations(db: Queryable, organizationId: string): Promise<InvitationView[]> {
  const { rows } = await db.query<InvitationView>(
    `${SELECT_VIEW} WHERE i.organization_id = $1 AND i.accepted_at IS NULL ORDER BY i.created_at, i.email`,
    [organizationId],
  )
  return rows
}

/** Open invitations addressed to an email that still work: what an account is told about. */
export async function listInvitationsForEmail(db: Queryable, email: string): Promise<InvitationView[]> {
  const { rows } = await db.query<InvitationView>(
    `${SELECT_VIEW} WHERE i.email = $1 AND i.accepted_at IS NULL AND i.expires_at > now() ORDER BY i.created_at`,
    [email],
  )
  return rows
}

export async function deleteInvitation(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM invitations WHERE id = $1', [id])
}

/**
 * The invitation a link stands for, if it can still be used. With `lock`, the row stays locked
 * until the transaction ends, so two tabs accepting at once cannot both succeed.
 */
export async function usableInvitationByToken(db: Queryable, token: string, options: { lock?: boolean } = {}): Promise<InvitationView> {
  const { rows } = await db.query<InvitationView>(`${SELECT_VIEW} WHERE i.token_hash = $1${options.lock ? ' FOR UPDATE OF i' : ''}`, [hashToken(token)])
  const invitation = rows[0]
  if (!invitation) throw notFound(INVITATION_TEXTS.notFound)
  if (invitation.accepted_at) throw gone(INVITATION_TEXTS.used)
  if (isExpired(invitation)) throw gone(INVITATION_TEXTS.expired)
  return invitation
}

/** Only the account the invitation is addressed to may accept or decline it. */
export function assertAddressedTo(invitation: InvitationView, user: UserRow): void {
  if (invitation.email !== user.email) {
    throw forbidden(`This invitation is for ${invitation.email}, and you are signed in as ${user.email}. Sign in with that account to answer it.`)
  }
}

/**
 * Joins the invitee to the organization and spends the invitation. Someone who became a member
 * meanwhile keeps the role they have: accepting never changes an existing membership.
 */
export async function acceptInvitation(db: Queryable, invitation: InvitationView, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO members (organization_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [invitation.organization_id, userId, invitation.role],
  )
  await db.query('UPDATE invitations SET accepted_at = now() WHERE id = $1', [invitation.id])
}

/** A person without an account: the account is created by opening the link, with the password they chose. */
export async function assertNoAccountYet(db: Queryable, email: string): Promise<void> {
  if (await findUserByEmail(db, email)) throw conflict(INVITATION_TEXTS.accountExists)
}
