import {
  AI_OPT_IN_FLAG_OFF,
  aiOptInUnchanged,
  canAssignRole,
  SlugParams,
  type Member,
  type OrgRole,
} from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { createOrganization, listMemberships, toOrganization, type OrgRow } from '../../auth/organizations.js'
import { inTransaction, type Queryable } from '../../store/db.js'
import { identityOf, orgAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, notFound, parse } from '../../errors.js'
import { assertMayChangePlan, assertMayCreateOrganization } from '../installation-policy.js'
import { route } from '../typed-route.js'

const MemberParams = SlugParams.extend({ user_id: z.uuid({ error: 'Member id must be a UUID' }) })

interface MemberRow {
  user_id: string
  email: string
  username: string
  role: OrgRole
  joined_at: Date
}

const toMember = (row: MemberRow): Member => ({
  user_id: row.user_id,
  primary_email: row.email,
  username: row.username,
  role: row.role,
  joined_at: row.joined_at.toISOString(),
})

async function findMember(db: Queryable, orgId: string, userId: string): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, u.username, m.role, m.joined_at FROM members m JOIN users u ON u.id = m.user_id
     WHERE m.organization_id = $1 AND m.user_id = $2`,
    [orgId, userId],
  )
  return rows[0] ?? null
}

/** An organization must keep at least one owner: someone must be able to manage billing. */
async function assertOtherOwnerExists(db: Queryable, orgId: string, userId: string): Promise<void> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT count(*) FROM members WHERE organization_id = $1 AND role = 'owner' AND user_id <> $2`,
    [orgId, userId],
  )
  if (Number(rows[0]!.count) === 0) throw invalidInput('An organization needs at least one owner')
}

export async function organizationRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/organizations', async (request) => {
    return (await listMemberships(ctx.db, identityOf(request).user.id)).map((membership) => toOrganization(membership, ctx.config.aiOptInChoosable))
  })

  route(app, 'POST /platform/organizations', async (request, reply, input) => {
    const { name } = input.body
    await assertMayCreateOrganization(ctx, identityOf(request).user.id)
    const membership = await inTransaction(ctx.db, (tx) => createOrganization(tx, name, identityOf(request).user.id))
    reply.code(201)
    return toOrganization(membership, ctx.config.aiOptInChoosable)
  })

  route(app, 'GET /platform/organizations/{slug}', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    return toOrganization(await orgAccess(ctx.db, request, slug), ctx.config.aiOptInChoosable)
  })

  route(app, 'PATCH /platform/organizations/{slug}', async (request, _reply, input) => {
    const { slug } = parse(SlugParams, request.params)
    const body = input.body
    const membership = await orgAccess(ctx.db, request, slug, 'organizations.update')
    const level = body.ai_opt_in_level
    // The spec's rule for the assistant opt-in level: the update permission (checked above), the
    // installation's opt-in flag, and a value different from the current one.
    if (level !== undefined) {
      if (!ctx.config.aiOptInChoosable) throw forbidden(AI_OPT_IN_FLAG_OFF)
      if (level === membership.org.ai_opt_in_level) throw invalidInput(aiOptInUnchanged(level))
    }
    const { rows } = await ctx.db.query<OrgRow>(
      `UPDATE organizations SET name = coalesce($2, name), ai_opt_in_level = coalesce($3, ai_opt_in_level) WHERE id = $1 RETURNING *`,
      [membership.org.id, body.name ?? null, level ?? null],
    )
    return toOrganization({ ...membership, org: rows[0]! }, ctx.config.aiOptInChoosable)
  })

  // No payment processing: the plan is a setting that the installation's owner changes (or, when the
  // installation settings say so, the organization's owners).
  route(app, 'PUT /platform/organizations/{slug}/billing/subscription', async (request, _reply, input) => {
    const { slug } = parse(SlugParams, request.params)
    const { plan } = input.body
    const membership = await orgAccess(ctx.db, request, slug)
    await assertMayChangePlan(ctx, identityOf(request).user.id, membership.role)
    await ctx.db.query('UPDATE organizations SET plan = $2 WHERE id = $1', [membership.org.id, plan])
    return toOrganization({ ...membership, org: { ...membership.org, plan } }, ctx.config.aiOptInChoosable)
  })

  route(app, 'GET /platform/organizations/{slug}/members', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    const { org } = await orgAccess(ctx.db, request, slug)
    const { rows } = await ctx.db.query<MemberRow>(
      `SELECT m.user_id, u.email, u.username, m.role, m.joined_at FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY m.joined_at, u.email`,
      [org.id],
    )
    return rows.map(toMember)
  })

  // Adding a member is an invitation that the invitee accepts: routes/invitations.ts.

  route(app, 'PATCH /platform/organizations/{slug}/members/{user_id}', async (request, _reply, input) => {
    const params = parse(MemberParams, request.params)
    const body = input.body
    const { org, role } = await orgAccess(ctx.db, request, params.slug, 'members.write')
    const member = await inTransaction(ctx.db, async (tx) => {
      const target = await findMember(tx, org.id, params.user_id)
      if (!target) throw notFound('Member not found')
      if (!canAssignRole(role, body.role) || !canAssignRole(role, target.role)) throw forbidden('Only an owner can change the role of an owner or make a member an owner')
      if (target.role === 'owner' && body.role !== 'owner') await assertOtherOwnerExists(tx, org.id, target.user_id)
      await tx.query('UPDATE members SET role = $3 WHERE organization_id = $1 AND user_id = $2', [org.id, target.user_id, body.role])
      return toMember({ ...target, role: body.role })
    })
    ctx.accessCache.forget()
    return member
  })

  route(app, 'DELETE /platform/organizations/{slug}/members/{user_id}', async (request) => {
    const params = parse(MemberParams, request.params)
    const { org, role } = await orgAccess(ctx.db, request, params.slug, 'members.write')
    const removed = await inTransaction(ctx.db, async (tx) => {
      const target = await findMember(tx, org.id, params.user_id)
      if (!target) throw notFound('Member not found')
      if (!canAssignRole(role, target.role)) throw forbidden('Only an owner can remove an owner')
      if (target.role === 'owner') await assertOtherOwnerExists(tx, org.id, target.user_id)
      await tx.query('DELETE FROM members WHERE organization_id = $1 AND user_id = $2', [org.id, target.user_id])
      return { user_id: target.user_id }
    })
    ctx.accessCache.forget()
    return removed
  })
}
