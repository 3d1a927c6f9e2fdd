export const invitationKeys = {
  all: ['invitations'] as const,
  /** What a link offers (no sign-in needed to read it). */
  details: (token: string) => [...invitationKeys.all, 'link', token] as const,
  /** Open invitations addressed to the signed-in account. */
  received: () => [...invitationKeys.all, 'received'] as const,
}
