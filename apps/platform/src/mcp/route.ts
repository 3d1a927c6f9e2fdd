import { AccessTokenPattern, FUNCTION_LIMITS, ProjectRef } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { MCP_TOOLS, toolServices, type ToolContext } from '../ai/tools/index.js'
import type { UserRow } from '../auth/users.js'
import { projectAccessOf } from '../auth/project-access.js'
import type { PlatformContext } from '../platform-context.js'
import { unauthenticated, forbidden, parse } from '../errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    mcpCaller?: UserRow
  }
}

const McpQuery = z.object({
  read_only: z.enum(['true', 'false'], { error: 'read_only must be true or false' }).optional(),
  project_ref: ProjectRef.optional(),
})

/** A deploy_edge_function call carries the function's files as JSON text: room for the deploy limit. */
const MCP_BODY_LIMIT = FUNCTION_LIMITS.maxTotalBytes + 4 * 1024 * 1024

/**
 * Personal access tokens only (`Authorization: Bearer sbp_...`, as /v1 accepts them): no session
 * cookie, so no other site's page can make a signed-in browser call tools.
 */
async function authenticate(request: FastifyRequest, ctx: PlatformContext): Promise<UserRow> {
  const header = request.headers.authorization
  if (!header) throw unauthenticated('Missing access token: send Authorization: Bearer sbp_... (a personal access token)')
  const token = header.replace(/^Bearer\s+/i, '').trim()
  if (!AccessTokenPattern.test(token)) throw unauthenticated('Invalid access token: expected sbp_ followed by 40 hex characters')
  const identity = await ctx.identities.fromAccessToken(token)
  if (!identity) throw unauthenticated('Invalid or revoked access token')
  if (identity.user.password_change_required) {
    throw forbidden('Set a new password before continuing: your account still uses its one-time password')
  }
  return identity.user
}

const methodNotAllowed = (_request: FastifyRequest, reply: FastifyReply) =>
  reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, send requests with POST' }, id: null })

/**
 * POST /mcp: the MCP endpoint (Streamable HTTP, stateless) over the tool layer of ai/tools/. Query
 * parameters: read_only=true refuses every tool that writes, for everyone; project_ref=<ref> scopes the
 * connection to one project (its tools take no project_id; other projects are refused).
 */
export async function mcpRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const services = toolServices(app, ctx)

  app.post('/mcp', {
    bodyLimit: MCP_BODY_LIMIT,
    // Before the body is read: an unauthenticated caller never gets to send a large one.
    onRequest: async (request) => {
      request.mcpCaller = await authenticate(request, ctx)
    },
    handler: async (request, reply) => {
      const caller = request.mcpCaller!
      const query = parse(McpQuery, request.query)
      // A scope the caller cannot see is refused at once, as the routes answer it.
      if (query.project_ref) await projectAccessOf(ctx.db, caller.id, query.project_ref, 'projects.read', ctx.accessCache)
      const context: ToolContext = {
        platform: ctx,
        caller,
        projectRef: query.project_ref ?? null,
        readOnly: query.read_only === 'true',
        services,
        origin: { host: request.headers.host, protocol: request.protocol },
      }
      // The MCP SDK is loaded on the first request, not at boot.
      const [{ StreamableHTTPServerTransport }, { buildMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        import('./server.js'),
      ])
      const server = buildMcpServer(context, MCP_TOOLS, request.log)
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      reply.hijack()
      reply.raw.on('close', () => {
        void transport.close()
        void server.close()
      })
      try {
        await server.connect(transport)
        await transport.handleRequest(request.raw, reply.raw, request.body)
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed')
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' })
          reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }))
        }
      }
    },
  })
  app.get('/mcp', methodNotAllowed)
  app.delete('/mcp', methodNotAllowed)
}
