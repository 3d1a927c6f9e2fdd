import { timingSafeEqual } from 'node:crypto'
import type { JWTPayload } from 'jose'
import { keyDigest, looksLikeNamedKey } from '../keys/named-keys.js'
import { verifiedProjectClaims } from '../keys/project-keys.js'
import type { GatewayProject } from './project-directory.js'

/** A refused request: the status and the body Supabase's gateway answers with. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint: string | null = null,
  ) {
    super(message)
  }

  body(): { message: string; hint?: string } {
    return this.hint ? { message: this.message, hint: this.hint } : { message: this.message }
  }
}

/** Who a request acts as, once its key passed. */
export interface KeyCheck {
  /** The apikey that was presented: anon or service_role. */
  apikeyRole: 'anon' | 'service_role'
  apikey: string
  /** The token PostgREST and GraphQL run with: the Authorization bearer, or the apikey without one. */
  bearer: string
  /** The bearer's verified claims; null when it does not verify (PostgREST answers that itself). */
  claims: JWTPayload | null
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** Browsers send a User-Agent starting with Mozilla/ (all of them, for historical reasons); servers and CLIs do not. */
const isBrowser = (userAgent: string | undefined) => /^Mozilla\//.test(userAgent ?? '')

/**
 * The role a publishable or secret key of this project acts as, or null when the text is not one.
 * A secret key from a browser is refused, as Supabase does: it must never ship in a web page.
 */
export function namedKeyRole(project: GatewayProject, key: string, userAgent: string | undefined): 'anon' | 'service_role' | null {
  if (!looksLikeNamedKey(key)) return null
  const type = project.namedKeys.get(keyDigest(key))
  if (!type) return null
  if (type === 'secret' && isBrowser(userAgent)) {
    throw new GatewayError(401, 'Forbidden use of secret API key in browser', 'Secret API keys can only be used in a protected environment and should never be used in a browser. Use a publishable key instead.')
  }
  return type === 'publishable' ? 'anon' : 'service_role'
}

const LEGACY_DISABLED = (): GatewayError =>
  new GatewayError(401, 'Legacy API keys are disabled', 'Your legacy API keys (anon, service_role) were disabled for this project. Re-enable them in the API settings.')

/** True when `token` is the project's legacy anon or service_role key and those are disabled: refused in every position. */
export function isDisabledLegacyKey(project: GatewayProject, token: string | undefined): boolean {
  if (!token || project.legacyEnabled) return false
  // Header and claims, not the whole string: a signature re-encoded with other spare bits (base64url decoders
  // accept them) still verifies, but HS256 signs exactly these two segments.
  const signed = signedPart(token)
  return sameText(signed, signedPart(project.anonKey)) || sameText(signed, signedPart(project.serviceRoleKey))
}

const signedPart = (token: string) => token.trim().split('.').slice(0, 2).join('.')

/** Throws the gateway's 401 when the bearer is a disabled legacy key (apikey, Authorization and ?apikey= alike). */
export function refuseDisabledLegacyKey(project: GatewayProject, token: string | undefined): void {
  if (isDisabledLegacyKey(project, token)) throw LEGACY_DISABLED()
}

/** The JWT a named key's role runs with behind the gateway (the services verify JWTs, not named keys). */
const roleJwt = (project: GatewayProject, role: 'anon' | 'service_role') => (role === 'anon' ? project.anonKey : project.serviceRoleKey)

/**
 * Supabase's gateway rule: every request carries an `apikey` (header, or query parameter for
 * links and WebSockets) that is one of the project's keys; the Authorization bearer may be a user's
 * JWT beside it. The keys are known in memory (ProjectDirectory), so this costs no database call.
 * A publishable or secret key works whether or not the legacy keys are enabled; the bearer then is
 * the user's JWT when there is one, else its role's.
 */
export function checkApiKey(
  project: GatewayProject,
  apikey: string | undefined,
  authorization: string | undefined,
  userAgent?: string,
): Omit<KeyCheck, 'claims'> {
  if (!apikey) throw new GatewayError(401, 'No API key found in request', 'No `apikey` request header or url param was found.')
  const presented = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim()
  const named = namedKeyRole(project, apikey, userAgent)
  if (named) {
    // A named key beside a legacy key as the bearer: the legacy key is still refused when disabled.
    refuseDisabledLegacyKey(project, presented)
    const bearerRole = presented && presented !== apikey ? namedKeyRole(project, presented, userAgent) : null
    const bearer = !presented || presented === apikey ? roleJwt(project, named) : bearerRole ? roleJwt(project, bearerRole) : presented
    return { apikeyRole: named, apikey, bearer }
  }
  const apikeyRole = sameText(apikey, project.anonKey) ? 'anon' : sameText(apikey, project.serviceRoleKey) ? 'service_role' : null
  if (!apikeyRole) throw new GatewayError(401, 'Invalid API key', 'Double check your Supabase `anon` or `service_role` API key.')
  if (!project.legacyEnabled) throw LEGACY_DISABLED()
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() || apikey
  return { apikeyRole, apikey, bearer }
}

/**
 * The bearer's claims when it is a JWT of the project (HS256 with its secret, or ES256/RS256 with one of its signing
 * keys; keys/project-keys.ts verifies and remembers them) carrying a role, and not expired; null otherwise.
 */
export async function verifiedClaims(project: GatewayProject, token: string): Promise<JWTPayload | null> {
  const claims = await verifiedProjectClaims(project, token)
  return claims && typeof claims.role === 'string' ? claims : null
}
