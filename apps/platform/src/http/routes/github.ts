import {
  GitHubBranchParams,
  GitHubConnectionIdParams,
  type OrgRole,
  type Permission,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { GitHubError, GitHubNotFoundError } from '../../integrations/github/client.js'
import { createConnection, deleteConnection, findConnection, listConnections, toGitHubConnection } from '../../integrations/github/connections.js'
import { gitHubClientFor } from '../../integrations/github/migrations-source.js'
import { assertCan } from '../../auth/project-access.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { DomainError, notFound, upstreamFailed, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/**
 * GitHub connections of an organization (its settings' Integrations page) and the enable-branching dialog's branch
 * check. Any member reads them; connecting and removing take projects.update in the organization (Owner,
 * Administrator). Outsiders get the 404 of any other organization route.
 */
export async function githubRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const github = gitHubClientFor(ctx)

  /** The caller's role in the organization (by id); not a member reads as not found. */
  async function roleIn(request: FastifyRequest, organizationId: number, permission?: Permission): Promise<OrgRole> {
    const { rows } = await ctx.db.query<{ role: OrgRole }>('SELECT role FROM members WHERE organization_id = $1 AND user_id = $2', [
      organizationId,
      identityOf(request).user.id,
    ])
    if (!rows[0]) throw notFound(`Organization ${organizationId} not found`)
    if (permission) assertCan(rows[0].role, permission)
    return rows[0].role
  }

  /** A connection the caller's organization holds; someone else's reads as not found. */
  async function connectionFor(request: FastifyRequest, connectionId: number, permission?: Permission) {
    const connection = await findConnection(ctx.db, connectionId)
    const missing = notFound(`GitHub connection ${connectionId} not found`)
    if (!connection) throw missing
    try {
      await roleIn(request, Number(connection.organization_id), permission)
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') throw missing
      throw error
    }
    return connection
  }

  route(app, 'GET /platform/integrations/github/connections', async (request, _reply, input) => {
    const { organization_id } = input.query
    await roleIn(request, organization_id)
    return { connections: (await listConnections(ctx.db, organization_id)).map(toGitHubConnection) }
  })

  route(app, 'POST /platform/integrations/github/connections', async (request, reply, input) => {
    const body = input.body
    await roleIn(request, body.organization_id, 'projects.update')
    const { rows } = await ctx.db.query('SELECT 1 FROM projects WHERE ref = $1 AND organization_id = $2 AND status <> $3', [
      body.project_ref,
      body.organization_id,
      'REMOVED',
    ])
    if (!rows[0]) throw notFound(`Project ${body.project_ref} not found in this organization`)
    const created = await createConnection(ctx.db, ctx.secrets, github, {
      organizationId: body.organization_id,
      projectRef: body.project_ref,
      repository: body.repository,
      token: body.token,
      workdir: body.workdir,
    })
    reply.code(201)
    return toGitHubConnection(created)
  })

  route(app, 'DELETE /platform/integrations/github/connections/{connectionId}', async (request, reply) => {
    const { connectionId } = parse(GitHubConnectionIdParams, request.params)
    await connectionFor(request, connectionId, 'projects.update')
    // Gone meanwhile (a second click): the same 404 as any unknown connection.
    if (!(await deleteConnection(ctx.db, connectionId))) throw notFound(`GitHub connection ${connectionId} not found`)
    return reply.code(204).send()
  })

  route(app, 'GET /platform/integrations/github/branches/{connectionId}/{branchName}', async (request) => {
    const { connectionId, branchName } = parse(GitHubBranchParams, request.params)
    const connection = await connectionFor(request, connectionId)
    try {
      const branch = await github.getBranch(connection.repository, branchName, ctx.secrets.open(connection.token_sealed))
      return { name: branch.name, commit: { sha: branch.commit.sha }, ...(branch.protected === undefined ? {} : { protected: branch.protected }) }
    } catch (error) {
      if (error instanceof GitHubNotFoundError) throw notFound(`Unable to find branch "${branchName}" in ${connection.repository}`)
      // A revoked token, a rate limit, GitHub unreachable: not the caller's mistake, and not their session's (no 401).
      if (error instanceof GitHubError) throw upstreamFailed(error.message)
      throw error
    }
  })
}
