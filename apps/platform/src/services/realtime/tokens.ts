import { errors, type JWTPayload } from 'jose'
import { isDisabledLegacyKey } from '../../gateway/api-key.js'
import { verifyProjectJwt } from '../../keys/project-keys.js'
import type { GatewayProject } from '../../gateway/project-directory.js'

/** The claims a channel acts with: its role (an API role or one the project made) and the rest for RLS. */
export interface ChannelClaims {
  role: string
  exp: number
  claims: JWTPayload
  /** The token they came from: an access_token push with the same one changes nothing. */
  token: string
}

/** Why a token was refused, in Supabase Realtime's words ("<Code>: <message>"). */
export class TokenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }

  get reason(): string {
    return `${this.code}: ${this.message}`
  }
}

/** Supabase Realtime cleans a token before verifying it: URI-decoded, every blank removed. */
function cleanToken(token: string): string {
  let decoded = token
  try {
    decoded = decodeURIComponent(token)
  } catch {
    // Kept as it came.
  }
  return decoded.replace(/\s+/g, '')
}

/**
 * Verifies a channel's token with the project's JWT secret, as Supabase Realtime does at join and on
 * every access_token push: a valid signature, `role` and `exp` present, not expired. A disabled legacy key
 * is refused like everywhere else on the project URL.
 */
export async function verifyChannelToken(project: GatewayProject, token: string, now = Date.now()): Promise<ChannelClaims> {
  const cleaned = cleanToken(token)
  if (isDisabledLegacyKey(project, cleaned)) throw new TokenError('InvalidJWTToken', 'Legacy API keys are disabled')
  let claims: JWTPayload
  try {
    // HS* with the project's secret, or ES256/RS256 with one of its signing keys (keys/project-keys.ts).
    claims = await verifyProjectJwt(project, cleaned, { hmac: ['HS256', 'HS384', 'HS512'], currentDate: new Date(now) })
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      const exp = Number(error.payload.exp)
      throw new TokenError('InvalidJWTToken', `Token has expired ${Math.max(0, Math.floor(now / 1000) - exp)} seconds ago`)
    }
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) {
      throw new TokenError('JwtSignatureError', 'Failed to validate JWT signature')
    }
    throw new TokenError('MalformedJWT', 'The token provided is not a valid JWT')
  }
  if (typeof claims.role !== 'string' || claims.exp === undefined) throw new TokenError('InvalidJWTToken', 'Fields `role` and `exp` are required in JWT')
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) throw new TokenError('InvalidJWTToken', 'Token expiration time is invalid')
  return { role: claims.role, exp: claims.exp, claims, token: cleaned }
}

/**
 * The token a join or an access_token push carries, or null when the socket's own applies: Supabase ignores
 * publishable and secret keys there (supabase-js sends its key when no one is signed in) and empty values.
 */
export function presentedToken(value: unknown): string | null {
  if (typeof value !== 'string' || !value || value.startsWith('sb_')) return null
  return value
}
