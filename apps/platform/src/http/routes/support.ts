import { type SupportRequest } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { route } from '../typed-route.js'

interface SupportRow extends Omit<SupportRequest, 'created_at' | 'id'> {
  id: string
  created_at: Date
}

const toSupportRequest = (row: SupportRow): SupportRequest => ({ ...row, id: Number(row.id), created_at: row.created_at.toISOString() })

/** Support requests are stored for the platform's operators; each user sees their own. */
export async function supportRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/support/requests', async (request) => {
    const { rows } = await ctx.db.query<SupportRow>(
      `SELECT id, category, project_ref, subject, message, created_at FROM support_requests
       WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [identityOf(request).user.id],
    )
    return rows.map(toSupportRequest)
  })

  route(app, 'POST /platform/support/requests', async (request, reply, input) => {
    const body = input.body
    // A request about a project must be about one the user can see.
    if (body.project_ref) await projectAccess(ctx.db, request, body.project_ref)
    const { rows } = await ctx.db.query<SupportRow>(
      `INSERT INTO support_requests (user_id, category, project_ref, subject, message) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, category, project_ref, subject, message, created_at`,
      [identityOf(request).user.id, body.category, body.project_ref ?? null, body.subject, body.message],
    )
    reply.code(201)
    return toSupportRequest(rows[0]!)
  })
}
