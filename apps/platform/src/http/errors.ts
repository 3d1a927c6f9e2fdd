import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import pg from 'pg'
import { ZodError, type ZodType, type z } from 'zod'

/** An error whose message is meant for the user, with the HTTP status to answer. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, message)
export const notFound = (message: string) => new HttpError(404, message)
export const forbidden = (message: string) => new HttpError(403, message)
export const conflict = (message: string) => new HttpError(409, message)

/** The first problem of a failed validation, phrased for a person. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'Invalid request'
  const field = issue.path.join('.')
  // Our contract messages name their field ('Database password must be...'); zod's generic
  // ones ('Invalid input: expected string') need the field to make sense.
  const generic = /^(Invalid|Unrecognized|Too (small|big)|Expected)/.test(issue.message)
  return field && generic ? `${field}: ${issue.message}` : issue.message
}

/** Validates input against a contract schema; bad input becomes a 400 with a clear message. */
export function parse<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {})
  if (!result.success) throw badRequest(describeZodError(result.error))
  return result.data
}

/**
 * Postgres' "data exception" errors (SQLSTATE class 22: invalid text representation, datetime out
 * of range, a NUL byte in text...): the value given to a statement was not valid for its type.
 */
function isInvalidDataError(error: Error): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('22')
}

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) return reply.code(error.statusCode).send({ message: error.message })
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
