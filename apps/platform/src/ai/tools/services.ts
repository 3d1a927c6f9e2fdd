import type { FastifyInstance } from 'fastify'
import type { PlatformContext } from '../../platform-context.js'
import { MetaService } from '../../meta/service.js'
import { MemberQueryLimiter } from '../../sql-runner/member-limiter.js'
import { SqlService } from '../../sql-runner/service.js'

/** The long-lived pieces the tools run on: SQL pools, introspection, each member's share of queries. */
export interface ToolServices {
  sql: SqlService
  meta: MetaService
  members: MemberQueryLimiter
  close(): Promise<void>
}

export function createToolServices(ctx: PlatformContext): ToolServices {
  const sql = new SqlService(ctx.projects)
  const meta = new MetaService(ctx.projects.connections)
  return {
    sql,
    meta,
    members: new MemberQueryLimiter(),
    close: async () => {
      await meta.close()
    },
  }
}

const shared = new WeakMap<PlatformContext, ToolServices>()

/**
 * One set of tool services per platform, whichever door asks first (the MCP endpoint, the assistant
 * route): their pools and the per-member query limit are shared by both. Closed with the app: ask for
 * them while registering routes (mcpRoutes does), since Fastify takes no onClose hook once it has started.
 */
export function toolServices(app: FastifyInstance, ctx: PlatformContext): ToolServices {
  const existing = shared.get(ctx)
  if (existing) return existing
  const made = createToolServices(ctx)
  app.addHook('onClose', async () => {
    if (shared.get(ctx) === made) shared.delete(ctx)
    await made.close()
  })
  shared.set(ctx, made)
  return made
}
