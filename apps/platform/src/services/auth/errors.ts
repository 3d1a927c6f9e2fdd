/** The API version auth-js asks for, and the one from which errors carry `code` + `message`. */
export const API_VERSION_2024 = '2024-01-01'
export const API_VERSION_HEADER = 'x-supabase-api-version'

/**
 * A refused auth request, as Supabase Auth (GoTrue) answers it: an HTTP status, a machine-readable
 * error code that auth-js turns into `AuthApiError.code`, and the message the client shows.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }

  /**
   * Clients that send `X-Supabase-Api-Version: 2024-01-01` (auth-js does) get `{ code, message }`;
   * older ones GoTrue's first shape `{ code: <status>, error_code, msg }`.
   */
  body(apiVersion: string | undefined): Record<string, unknown> {
    if (apiVersion && apiVersion >= API_VERSION_2024) return { code: this.code, message: this.message, ...this.extra }
    return { code: this.status, error_code: this.code, msg: this.message, ...this.extra }
  }
}

export const badJson = () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON')
export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message)
export const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials')
export const notAdmin = () => new AuthError(403, 'not_admin', 'User not allowed')
export const noAuthorization = () => new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
export const badJwt = () => new AuthError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is expired or the signing key has changed')
export const sessionNotFound = () => new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
export const userNotFound = () => new AuthError(404, 'user_not_found', 'User not found')
export const rateLimited = (what = 'Request rate limit reached') => new AuthError(429, 'over_request_rate_limit', what)
/** GoTrue's text for a message channel its SMS provider cannot use: WhatsApp needs Twilio, and the outbox is none. */
export const invalidChannel = () =>
  validationFailed("Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.")
export const otpExpired = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid')

/** GoTrue's OAuthError: the OAuth 2 shape `{ error, error_description }` (the id_token grant's refusals), status 400. */
export class OAuthError extends AuthError {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(400, error, description)
  }

  override body(): Record<string, unknown> {
    return { error: this.error, error_description: this.message }
  }
}
