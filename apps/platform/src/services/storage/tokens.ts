import { jwtVerify, SignJWT } from 'jose'
import { invalidJwt } from './errors.js'

/**
 * Signed URLs as storage-api makes them: a JWT signed with the project's JWT secret whose `url` claim
 * names `bucket/path`; downloads (`/object/sign/...`) and uploads (`/object/upload/sign/...`, with the
 * owner and upsert decided when the URL was made). Rotating the project's JWT secret voids them all.
 */
export interface DownloadToken {
  url: string
}

export interface UploadToken {
  url: string
  owner: string | null
  upsert: boolean
}

/** storage-api's fixed lifetime of a signed upload URL. */
export const UPLOAD_URL_SECONDS = 2 * 60 * 60

const key = (secret: string) => new TextEncoder().encode(secret)

export async function signToken(secret: string, claims: Record<string, unknown>, expiresInSeconds: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(key(secret))
}

/** The token's claims when it is ours, unexpired and made for exactly `url`; a 400 InvalidJWT otherwise. */
export async function verifyToken(secret: string, token: string, url: string): Promise<Record<string, unknown>> {
  let claims: Record<string, unknown>
  try {
    claims = (await jwtVerify(token, key(secret), { algorithms: ['HS256'] })).payload as Record<string, unknown>
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED'
    throw invalidJwt(expired ? 'jwt expired' : 'invalid signature')
  }
  if (claims.url !== url) throw invalidJwt('Invalid signature: the URL was not signed for this object')
  return claims
}
