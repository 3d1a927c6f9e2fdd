import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import pg from 'pg'
import { ZodError } from 'zod'
import { DomainError, describeZodError, type DomainErrorKind } from '../errors.js'

/** The one mapping from what went wrong (errors.ts) to the status a client sees. */
export const STATUS_OF: Record<DomainErrorKind, number> = {
  'invalid-input': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'rate-limited': 429,
  failed: 500,
  'upstream-failed': 502,
  unavailable: 503,
}

/**
 * Postgres' "data exception" errors (SQLSTATE class 22: invalid text representation, datetime out
 * of range, a NUL byte in text...): the value given to a statement was not valid for its type.
 */
function isInvalidDataError(error: Error): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('22')
}

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) return reply.code(STATUS_OF[error.kind]).send({ message: error.message })
  if (error instanceof ZodError) return reply.code(400).send({ message: describeZodError(error) })
  const fastifyError = error as FastifyError
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported media type...
    return reply.code(fastifyError.statusCode).send({ message: fastifyError.message })
  }
  if (isInvalidDataError(error)) {
    // The input guard and the contracts catch bad values first; a value that still reaches a query
    // and is refused there (a text that is no timestamp, say) is the request's fault too.
    request.log.warn({ err: error }, 'a request value was refused by the database')
    return reply.code(400).send({ message: `Invalid value: ${error.message}` })
  }
  request.log.error({ err: error }, 'request failed')
  return reply.code(500).send({ message: 'Internal server error' })
}
