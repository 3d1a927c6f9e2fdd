/**
 * Members join by invitation, which the invitee accepts (docs/ARCHITECTURE.md "Accounts, invitations, permissions").
 * There is no mail server: the inviter gets a one-time link, shown once, and hands it over. A person
 * without an account sets their own password on it; an existing account signs in and accepts.
 */
import { z } from 'zod'
import { Email, NewPassword } from './auth.js'
import { Organization } from './organizations.js'
import { OrgRole } from './permissions.js'
export * from './values/invitations.js'

/** POST /platform/organizations/{slug}/members/invitations */
export const InviteMemberBody = z.object({ email: Email, role: OrgRole })
export type InviteMemberBody = z.infer<typeof InviteMemberBody>

/** The link's secret: 32 random bytes, base64url. Only its hash is stored. */
export const InvitationToken = z.string({ error: 'Invitation token is required' }).regex(/^[\w-]{43}$/, 'This invitation link is not valid')
export const InvitationTokenParams = z.object({ token: InvitationToken })
export const InvitationIdParams = z.object({ id: z.uuid({ error: 'Invitation id must be a UUID' }) })

/** An open invitation as the organization's owners and administrators see it. */
export const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  role: OrgRole,
  /** The inviter's email; null once that account is gone. */
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
})
export type Invitation = z.infer<typeof Invitation>

/** The answer to an invitation: the link, shown once to the inviter and never stored. */
export const CreatedInvitation = z.object({ invitation: Invitation, invitation_url: z.string() })
export type CreatedInvitation = z.infer<typeof CreatedInvitation>

/** GET /platform/invitations/{token}: what the link offers, for the page that opens it. */
export const InvitationDetails = z.object({
  id: z.string(),
  organization_name: z.string(),
  email: z.string(),
  role: OrgRole,
  invited_by: z.string().nullable(),
  expires_at: z.string(),
  /** An account with this email exists: it signs in and accepts instead of setting a password. */
  account_exists: z.boolean(),
})
export type InvitationDetails = z.infer<typeof InvitationDetails>

/** GET /platform/profile/invitations: open invitations addressed to the signed-in account's email. */
export const ReceivedInvitation = z.object({
  id: z.string(),
  organization_name: z.string(),
  role: OrgRole,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
})
export type ReceivedInvitation = z.infer<typeof ReceivedInvitation>

/** POST /platform/invitations/{token}/sign-up: a person without an account chooses their password. */
export const InvitationSignUpBody = z.object({ password: NewPassword })

/** Accepting (with or without a new account) answers with the organization joined. */
export const AcceptedInvitation = z.object({ organization: Organization })
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>

