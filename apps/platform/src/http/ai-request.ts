import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { PlatformContext } from '../platform-context.js'

/**
 * Aborts model calls whose client went away (a closed tab must not keep a paid generation running)
 * and every call still running at shutdown (a long generation must not hold the server open).
 */
export function modelCallAborter(app: FastifyInstance): (reply: FastifyReply) => AbortSignal {
  const inFlight = new Set<AbortController>()
  app.addHook('preClose', async () => {
    for (const controller of inFlight) controller.abort()
  })
  return (reply) => {
    const controller = new AbortController()
    inFlight.add(controller)
    // The response's 'close' is the reliable signal: the request's own fires once its body is read.
    reply.raw.once('close', () => {
      inFlight.delete(controller)
      if (!reply.raw.writableFinished) controller.abort()
    })
    return controller.signal
  }
}

/**
 * Per-user limit on the calls that cost model tokens. Uses the @fastify/rate-limit instance that
 * authRoutes registers (global: false, so only routes with this config are limited).
 */
export function aiRateLimit(ctx: PlatformContext): RouteShorthandOptions {
  if (!ctx.config.aiRateLimitPerMinute) return {}
  return {
    config: {
      rateLimit: {
        max: ctx.config.aiRateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request: FastifyRequest) => `ai:${request.identity?.user.id ?? request.ip}`,
        errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => ({
          statusCode: 429,
          message: `Too many AI requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
        }),
      },
    },
  }
}
