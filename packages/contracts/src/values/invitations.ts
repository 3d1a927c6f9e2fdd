/**
 * Invitations: how long a link works, and the texts of the invitation pages and answers.
 * Plain values only, no zod: the dashboard imports these without the schemas (see values/README.md).
 */
/** How long an invitation link works. */
export const INVITATION_DAYS = 7

export const INVITATION_TEXTS = {
  linkShownOnce: 'You will not be able to see this link again.',
  inviteOwner: 'Only an owner can invite another owner',
  revokeOwner: 'Only an owner can revoke the invitation of an owner',
  notFound: 'This invitation link is not valid: it was revoked or declined, or it was never issued',
  used: 'This invitation has already been used',
  expired: 'This invitation has expired: ask the organization for a new one',
  accountExists: 'An account with this email already exists: sign in to accept the invitation',
  /** Accepting needs the link: the email of an account is never verified (there is no mail). */
  acceptWithLink: 'To accept, open the invitation link you were given',
} as const
