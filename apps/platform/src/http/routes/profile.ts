import { ROLE_PERMISSIONS, type AccessToken, type OrgPermissions } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { listMemberships } from '../../auth/organizations.js'
import { verifyPassword } from '../../auth/passwords.js'
import { hashToken, newAccessToken, tokenAlias } from '../../auth/secrets.js'
import { setPassword, toProfile } from '../../auth/users.js'
import { identityOf } from '../access.js'
import { setSessionCookie } from './auth.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, notFound, parse } from '../../errors.js'
import { route } from '../typed-route.js'

interface TokenRow {
  id: string
  name: string
  token_alias: string
  created_at: Date
  last_used_at: Date | null
}

function toAccessToken(row: TokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    token_alias: row.token_alias,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  }
}

const TokenIdParams = z.object({ id: z.uuid({ error: 'Token id must be a UUID' }) })

export async function profileRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/profile', async (request) => toProfile(identityOf(request).user))

  route(app, 'PUT /platform/profile/password', async (request, reply, input) => {
    const identity = identityOf(request)
    const body = input.body
    if (!(await verifyPassword(body.current_password, identity.user.password_hash))) throw invalidInput('Current password is incorrect')
    if (body.current_password === body.new_password) throw invalidInput('The new password must differ from the current one')
    // Ends every session of the account (a stolen one included)...
    const updated = await setPassword(ctx.db, identity.user.id, body.new_password, false)
    ctx.identities.forgetAll()
    // ...but the browser that made the change stays signed in, on a fresh session.
    if (identity.via === 'session') setSessionCookie(request, reply, await ctx.identities.createSession(updated.id))
    return toProfile(updated)
  })

  route(app, 'GET /platform/profile/permissions', async (request): Promise<OrgPermissions[]> => {
    const memberships = await listMemberships(ctx.db, identityOf(request).user.id)
    return memberships.map(({ org, role }) => ({
      organization_id: Number(org.id),
      organization_slug: org.slug,
      role,
      permissions: [...ROLE_PERMISSIONS[role]],
    }))
  })

  route(app, 'GET /platform/profile/access-tokens', async (request) => {
    const { rows } = await ctx.db.query<TokenRow>(
      'SELECT id, name, token_alias, created_at, last_used_at FROM access_tokens WHERE user_id = $1 ORDER BY created_at DESC',
      [identityOf(request).user.id],
    )
    return rows.map(toAccessToken)
  })

  route(app, 'POST /platform/profile/access-tokens', async (request, reply, input) => {
    const { name } = input.body
    const token = newAccessToken()
    const { rows } = await ctx.db.query<TokenRow>(
      `INSERT INTO access_tokens (user_id, name, token_hash, token_alias) VALUES ($1, $2, $3, $4)
       RETURNING id, name, token_alias, created_at, last_used_at`,
      [identityOf(request).user.id, name, hashToken(token), tokenAlias(token)],
    )
    reply.code(201)
    return { ...toAccessToken(rows[0]!), token }
  })

  route(app, 'DELETE /platform/profile/access-tokens/{id}', async (request) => {
    const { id } = parse(TokenIdParams, request.params)
    const { rowCount } = await ctx.db.query('DELETE FROM access_tokens WHERE id = $1 AND user_id = $2', [id, identityOf(request).user.id])
    if (!rowCount) throw notFound('Access token not found')
    ctx.identities.forgetAll()
    return { id }
  })
}
