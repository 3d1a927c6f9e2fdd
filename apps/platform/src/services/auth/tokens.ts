import { createHash, randomBytes, randomInt } from 'node:crypto'
import { SignJWT } from 'jose'
import { signProjectJwt, type ProjectJwtKeys } from '../../keys/project-keys.js'

/** What an access token says about its user and session (GoTrue's claims). */
export interface AccessClaims {
  sub: string
  email: string
  phone: string
  app_metadata: Record<string, unknown>
  user_metadata: Record<string, unknown>
  session_id: string
  /** The session's assurance level: aal2 once a second factor was verified in it. */
  aal: 'aal1' | 'aal2'
  /** How the session was authenticated (password, otp, magiclink, totp ...), most recent first. */
  amr: AmrEntry[]
  is_anonymous: boolean
}

/** One authentication method reference, as GoTrue's `amr` claim lists them. */
export interface AmrEntry {
  method: string
  timestamp: number
}

/**
 * An access token as GoTrue signs it: with the project's signing key in use (ES256/RS256 with its `kid`), or HS256
 * with the legacy JWT secret while none is; role `authenticated`, so PostgREST runs the request as that role and
 * auth.uid() reads `sub`.
 */
export async function signAccessToken(keys: ProjectJwtKeys, issuer: string, claims: AccessClaims, lifetimeSeconds: number): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(Date.now() / 1000)
  const expiresAt = issuedAt + lifetimeSeconds
  const jwt = new SignJWT({
    email: claims.email,
    phone: claims.phone,
    app_metadata: claims.app_metadata,
    user_metadata: claims.user_metadata,
    role: 'authenticated',
    aal: claims.aal,
    amr: claims.amr,
    session_id: claims.session_id,
    is_anonymous: claims.is_anonymous,
  })
    .setIssuer(issuer)
    .setSubject(claims.sub)
    .setAudience('authenticated')
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
  return { token: await signProjectJwt(keys, jwt), expiresAt }
}

/** An opaque refresh token (GoTrue's are short random strings; 16 bytes is 128 bits). */
export const newRefreshToken = (): string => randomBytes(16).toString('base64url')

/** A numeric one-time code of the given length, uniformly drawn. */
export function newOtp(length: number): string {
  let code = ''
  for (let i = 0; i < length; i++) code += String(randomInt(10))
  return code
}

/**
 * What is stored of a one-time code, as GoTrue stores it: the SHA-224 of the email or phone followed
 * by the code. Emailed links carry this hash (`token_hash`); typed codes are hashed to compare.
 */
export const tokenHash = (emailOrPhone: string, otp: string): string =>
  createHash('sha224').update(emailOrPhone + otp).digest('hex')

/** Which JWT secret a session started under: a rotation ends the sessions of the old secret. */
export const secretFingerprint = (secret: string): string => createHash('sha256').update(secret).digest('hex').slice(0, 16)
