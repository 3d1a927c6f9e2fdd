import { API_ROUTES, type ApiRouteKey, type ApiRoutes, type RouteSchemas } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteShorthandOptions } from 'fastify'
import type { z } from 'zod'
import { parse } from '../errors.js'

type Schemas<K extends ApiRouteKey> = (typeof API_ROUTES)[K]
/** A body or query made `.optional()` in the map is read as {} when absent, like any other. */
type Read<S> = S extends z.ZodType ? Exclude<z.output<S>, undefined> : undefined

/**
 * A request's body and query read with the route's schemas from the contracts' route map, each when first asked
 * for (so a handler that checks access first still answers 403 before 400). What does not fit is a 400 naming it.
 */
export interface RouteInput<K extends ApiRouteKey> {
  readonly body: Read<Schemas<K> extends { body: infer S } ? S : undefined>
  readonly query: Read<Schemas<K> extends { query: infer S } ? S : undefined>
}

/**
 * A route registered by its key in the contracts' route map (packages/contracts/src/routes.ts), the map the
 * dashboard's typed client compiles against and the OpenAPI document is generated from: the path is made from the
 * key, the body and query come read by the map's schemas, and what the handler returns must be the answer the map
 * promises, so a path or a shape that drifts from the dashboard's fails to compile here too. A handler that answers
 * through `reply` (a status other than 200, a stream) returns the reply, unchecked.
 */
export type RouteHandler<K extends ApiRouteKey> = (
  request: FastifyRequest,
  reply: FastifyReply,
  input: RouteInput<K>,
) => Promise<ApiRoutes[K]['response'] | FastifyReply>

/** '/v1/projects/{ref}/x' -> '/v1/projects/:ref/x'; a {...tail} is Fastify's wildcard. */
export function fastifyPath(path: string): string {
  return path.replace(/\{\.\.\.\w+\}/g, '*').replace(/\{(\w+)\}/g, ':$1')
}

function inputOf<K extends ApiRouteKey>(schemas: RouteSchemas, request: FastifyRequest): RouteInput<K> {
  const read = (schema: z.ZodType | undefined, value: unknown) => (schema ? parse(schema, value) : undefined)
  let body: { value: unknown } | undefined
  let query: { value: unknown } | undefined
  return {
    get body() {
      return (body ??= { value: read(schemas.body, request.body) }).value
    },
    get query() {
      return (query ??= { value: read(schemas.query, request.query) }).value
    },
  } as RouteInput<K>
}

/** `options` are Fastify's for the route (a body limit, a rate limit's config, a preHandler). */
export function route<K extends ApiRouteKey>(app: FastifyInstance, key: K, handler: RouteHandler<NoInfer<K>>, options: RouteShorthandOptions = {}): void {
  const space = key.indexOf(' ')
  const schemas: RouteSchemas = API_ROUTES[key]
  app.route({
    ...options,
    method: key.slice(0, space) as HTTPMethods,
    url: fastifyPath(key.slice(space + 1)),
    handler: (request, reply) => handler(request, reply, inputOf<K>(schemas, request)),
  })
}
