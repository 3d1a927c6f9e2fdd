import { ZodError, type ZodType, type z } from 'zod'

/**
 * What can go wrong for a caller, in the platform's own terms. Domain modules and routes throw a DomainError of one
 * of these kinds with a message meant for the user; http/errors.ts is the one place that turns a kind into a status
 * code and a `{ message }` body. Domain code never names a status (and never imports http/: eslint.config.js).
 */
export type DomainErrorKind =
  | 'invalid-input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'too-large'
  | 'rate-limited'
  /** The platform failed in a way the caller should hear about in words (a type generation, an archive). */
  | 'failed'
  /** A service the platform called (GitHub, an AI provider) refused or failed. */
  | 'upstream-failed'
  /** Not now: the project is paused, busy or still starting. */
  | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message)
  }
}

export const invalidInput = (message: string) => new DomainError('invalid-input', message)
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message)
export const forbidden = (message: string) => new DomainError('forbidden', message)
export const notFound = (message: string) => new DomainError('not-found', message)
export const conflict = (message: string) => new DomainError('conflict', message)
export const gone = (message: string) => new DomainError('gone', message)
export const tooLarge = (message: string) => new DomainError('too-large', message)
export const rateLimited = (message: string) => new DomainError('rate-limited', message)
export const failed = (message: string) => new DomainError('failed', message)
export const upstreamFailed = (message: string) => new DomainError('upstream-failed', message)
export const unavailable = (message: string) => new DomainError('unavailable', message)

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

/** Validates input against a contract schema; bad input becomes an invalid-input error with a clear message. */
export function parse<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {})
  if (!result.success) throw invalidInput(describeZodError(result.error))
  return result.data
}
