import type { FastifyInstance } from 'fastify'
import { invalidInput } from '../errors.js'
import { unsafeInput } from '../unsafe-input.js'

/**
 * The project URL's catch-all route (gateway.ts): its services read their own input and refuse it in
 * their own clients' error shapes (storage-api, GoTrue, GraphQL, PostgREST), not in the platform's.
 */
const isGatewayRoute = (routeUrl: string | undefined) => routeUrl !== undefined && routeUrl.startsWith('/projects/:ref/')

/**
 * Refuses hostile input on every route before any handler sees it, with a 400 and a message
 * instead of a 500 from wherever it would have broken. Path parameters and the query string come
 * decoded (%00 is a NUL byte by then); the body is parsed JSON.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (isGatewayRoute(request.routeOptions.url)) return
    const problem =
      unsafeInput(request.params, 'path') ?? unsafeInput(request.query, 'query string') ?? unsafeInput(request.body, 'request body')
    if (problem) throw invalidInput(problem)
  })
}
