/**
 * Errors in storage-api's shape: `{ statusCode, code, error, message }` with the HTTP status beside it.
 * @supabase/storage-js turns this into a StorageApiError whose message is `message` and whose `code`
 * (NoSuchKey, NoSuchBucket ...) callers test, as `exists()` does.
 */
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }

  body(): { statusCode: string; code: string; error: string; message: string } {
    return { statusCode: String(this.status), code: this.code, error: ERROR_NAMES[this.status] ?? 'Error', message: this.message }
  }
}

const ERROR_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Unauthorized',
  404: 'not_found',
  409: 'Duplicate',
  413: 'Payload too large',
  415: 'invalid_mime_type',
  416: 'InvalidRange',
  500: 'Internal',
}

export const noSuchBucket = () => new StorageError(404, 'NoSuchBucket', 'Bucket not found')
export const noSuchKey = () => new StorageError(404, 'NoSuchKey', 'Object not found')
export const invalidRequest = (message: string) => new StorageError(400, 'InvalidRequest', message)
export const invalidJwt = (message: string) => new StorageError(400, 'InvalidJWT', message)
export const accessDenied = (message = 'new row violates row-level security policy') => new StorageError(403, 'AccessDenied', message)
export const alreadyExists = () => new StorageError(409, 'Duplicate', 'The resource already exists')
export const tooLarge = () => new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size')
export const invalidMimeType = (type: string) => new StorageError(415, 'InvalidMimeType', `mime type ${type} is not supported`)
export const invalidKey = (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`)

/** Postgres errors that mean the caller's policies refused the row, or the row exists already. */
export function fromDatabaseError(error: unknown): StorageError | null {
  const code = (error as { code?: string }).code
  if (code === '42501') return accessDenied() // insufficient_privilege, and RLS WITH CHECK failures
  if (code === '23505') return alreadyExists()
  if (code === '23503') return noSuchBucket()
  return null
}
