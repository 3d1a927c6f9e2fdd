import type { ApiRouteKey, ApiRoutes } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'

/**
 * A route registered by its key in the contracts' route map (packages/contracts/src/routes.ts), the map the
 * dashboard's typed client compiles against: the path is made from the key, and what the handler returns must be
 * the answer the map promises, so a path or an answer that drifts from the dashboard's fails to compile here too.
 * A handler that answers through `reply` (a status other than 200, a stream) returns the reply, unchecked.
 */
export type RouteHandler<K extends ApiRouteKey> = (request: FastifyRequest, reply: FastifyReply) => Promise<ApiRoutes[K]['response'] | FastifyReply>

/** '/v1/projects/{ref}/x' -> '/v1/projects/:ref/x'; a {...tail} is Fastify's wildcard. */
export function fastifyPath(path: string): string {
  return path.replace(/\{\.\.\.\w+\}/g, '*').replace(/\{(\w+)\}/g, ':$1')
}

export function route<K extends ApiRouteKey>(app: FastifyInstance, key: K, handler: RouteHandler<NoInfer<K>>): void {
  const space = key.indexOf(' ')
  app.route({ method: key.slice(0, space) as HTTPMethods, url: fastifyPath(key.slice(space + 1)), handler })
}
