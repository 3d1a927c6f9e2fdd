/**
 * SQL runs on a read-only connection first (the SQL editor spec's read-only-first rule). A permission-denied or
 * must-be-owner error marks the query as a write, and the user is asked to confirm running it
 * on the full connection. Both messages carry SQLSTATE 42501 (insufficient_privilege); a
 * read-only transaction's refusal (25006) means the same thing.
 */

export interface QueryErrorLike {
  /** The SQLSTATE, when the driver gives it. */
  code?: string | undefined
  message: string
}

const WRITE_REFUSAL_CODES = new Set(['42501', '25006'])
const WRITE_REFUSAL_MESSAGE = /permission denied|must be owner|in a read-only transaction/i

/** Whether a failure on the read-only connection means the query needs the full connection. */
export function needsWriteConnection(error: QueryErrorLike): boolean {
  if (error.code !== undefined && WRITE_REFUSAL_CODES.has(error.code)) return true
  return WRITE_REFUSAL_MESSAGE.test(error.message)
}
