import {
  canAssignRole,
  INVITATION_TEXTS,
  InvitationIdParams,
  InvitationTokenParams,
  SlugParams,
  type AcceptedInvitation,
  type CreatedInvitation,
  type InvitationDetails,
  type ReceivedInvitation,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  acceptInvitation, assertAddressedTo, assertNoAccountYet, createInvitation, deleteInvitation, findInvitationById,
  isExpired, listInvitationsForEmail, listOrganizationInvitations, toInvitation, usableInvitationByToken, type InvitationView,
} from '../../auth/invitations.js'
import { findMembership, toOrganization } from '../../auth/organizations.js'
import { createUser, findUserByEmail } from '../../auth/users.js'
import { inTransaction } from '../../store/db.js'
import { identityOf, orgAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { forbidden, notFound, conflict, parse } from '../../errors.js'
import { setSessionCookie } from './auth.js'
import { route } from '../typed-route.js'

const OrgInvitationParams = SlugParams.merge(InvitationIdParams)

/**
 * Where the link points. A browser's Origin (already checked against our host for cookie requests)
 * knows the scheme a proxy may hide; STRATUM_PUBLIC_URL, when set, wins.
 */
function invitationUrl(request: FastifyRequest, ctx: PlatformContext, token: string): string {
  const origin =
    (ctx.config.publicUrl && new URL(ctx.config.publicUrl).origin) ||
    (request.identity?.via === 'session' && request.headers.origin) ||
    `${request.protocol}://${request.host}`
  return `${origin}/invite/${token}`
}

/** The organization the invitee just joined, as they see it in their list. */
async function joined(ctx: PlatformContext, userId: string, invitation: InvitationView): Promise<AcceptedInvitation> {
  const membership = await findMembership(ctx.db, userId, invitation.organization_slug)
  if (!membership) throw notFound(`Organization ${invitation.organization_slug} not found`)
  return { organization: toOrganization(membership, ctx.config.aiOptInChoosable) }
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505'

export async function invitationRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // --- The organization's side: owners and administrators invite, list and revoke. ---

  route(app, 'POST /platform/organizations/{slug}/members/invitations', async (request, reply, input): Promise<CreatedInvitation> => {
    const { slug } = parse(SlugParams, request.params)
    const body = input.body
    const { org, role } = await orgAccess(ctx.db, request, slug, 'members.write')
    if (!canAssignRole(role, body.role)) throw forbidden(INVITATION_TEXTS.inviteOwner)
    const { invitation, token } = await inTransaction(ctx.db, (tx) =>
      createInvitation(tx, { organizationId: org.id, email: body.email, role: body.role, invitedBy: identityOf(request).user.id }),
    )
    reply.code(201)
    return { invitation: toInvitation(invitation), invitation_url: invitationUrl(request, ctx, token) }
  })

  route(app, 'GET /platform/organizations/{slug}/members/invitations', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    const { org } = await orgAccess(ctx.db, request, slug, 'members.write')
    return (await listOrganizationInvitations(ctx.db, org.id)).map(toInvitation)
  })

  route(app, 'DELETE /platform/organizations/{slug}/members/invitations/{id}', async (request) => {
    const params = parse(OrgInvitationParams, request.params)
    const { org, role } = await orgAccess(ctx.db, request, params.slug, 'members.write')
    const invitation = await findInvitationById(ctx.db, params.id)
    if (!invitation || invitation.organization_id !== org.id || invitation.accepted_at) throw notFound('Invitation not found')
    if (!canAssignRole(role, invitation.role)) throw forbidden(INVITATION_TEXTS.revokeOwner)
    await deleteInvitation(ctx.db, invitation.id)
    return { id: invitation.id }
  })

  // --- The invitee's side: the link (no account needed to read it or to sign up with it). ---

  route(app, 'GET /platform/invitations/{token}', async (request): Promise<InvitationDetails> => {
    const { token } = parse(InvitationTokenParams, request.params)
    const invitation = await usableInvitationByToken(ctx.db, token)
    return {
      id: invitation.id,
      organization_name: invitation.organization_name,
      email: invitation.email,
      role: invitation.role,
      invited_by: invitation.inviter_email,
      expires_at: invitation.expires_at.toISOString(),
      account_exists: (await findUserByEmail(ctx.db, invitation.email)) !== null,
    }
  })

  // A person with no account sets their own password: the account is created, joins, and is signed in.
  route(app, 'POST /platform/invitations/{token}/sign-up', async (request, reply, input): Promise<AcceptedInvitation> => {
    const { token } = parse(InvitationTokenParams, request.params)
    const { password } = input.body
    const { invitation, userId } = await inTransaction(ctx.db, async (tx) => {
      const invitation = await usableInvitationByToken(tx, token, { lock: true })
      await assertNoAccountYet(tx, invitation.email)
      const user = await createUser(tx, invitation.email, password).catch((error: unknown) => {
        throw isUniqueViolation(error) ? conflict(INVITATION_TEXTS.accountExists) : error
      })
      await acceptInvitation(tx, invitation, user.id)
      return { invitation, userId: user.id }
    })
    setSessionCookie(request, reply, await ctx.identities.createSession(userId))
    reply.code(201)
    return joined(ctx, userId, invitation)
  })

  // An existing account accepts with the link, signed in as the address it was sent to.
  route(app, 'POST /platform/invitations/{token}/accept', async (request): Promise<AcceptedInvitation> => {
    const { token } = parse(InvitationTokenParams, request.params)
    const { user } = identityOf(request)
    const invitation = await inTransaction(ctx.db, async (tx) => {
      const invitation = await usableInvitationByToken(tx, token, { lock: true })
      assertAddressedTo(invitation, user)
      await acceptInvitation(tx, invitation, user.id)
      return invitation
    })
    return joined(ctx, user.id, invitation)
  })

  // --- The signed-in account: what is addressed to it, and declining. ---

  route(app, 'GET /platform/profile/invitations', async (request): Promise<ReceivedInvitation[]> => {
    const invitations = await listInvitationsForEmail(ctx.db, identityOf(request).user.email)
    return invitations.map((invitation) => ({
      id: invitation.id,
      organization_name: invitation.organization_name,
      role: invitation.role,
      invited_by: invitation.inviter_email,
      created_at: invitation.created_at.toISOString(),
      expires_at: invitation.expires_at.toISOString(),
    }))
  })

  route(app, 'DELETE /platform/profile/invitations/{id}', async (request) => {
    const { id } = parse(InvitationIdParams, request.params)
    const invitation = await findInvitationById(ctx.db, id)
    // Someone else's invitation reads as not found: its id tells nothing.
    if (!invitation || invitation.accepted_at || isExpired(invitation) || invitation.email !== identityOf(request).user.email) {
      throw notFound('Invitation not found')
    }
    await deleteInvitation(ctx.db, invitation.id)
    return { id: invitation.id }
  })
}
