/** The data-plane services behind a project's URL (gateway/router.ts routes by the path's first segment). */
export type GatewayService = 'rest' | 'graphql' | 'auth' | 'storage' | 'functions' | 'realtime' | 'unknown'

/**
 * One request through a project's URL, as the gateway records it (gateway/request-log.ts stores these;
 * the API keys page and, later, the logs explorer read them).
 */
export interface RequestLogEntry {
  timestamp: Date
  projectRef: string
  service: GatewayService
  method: string
  /** The path below the project URL with its query string, e.g. `/rest/v1/todos?select=*`. */
  path: string
  status: number
  durationMs: number
  /** The Postgres role the request ran as (anon, authenticated, service_role); null when the key was refused. */
  role: string | null
  /** The start of the apikey JWT's signature (identifies which key was used without storing it). */
  signaturePrefix: string | null
  userAgent: string | null
  clientAddress: string | null
}

/** How much of a key's signature the log keeps: enough to tell keys apart, too little to use one. */
export const SIGNATURE_PREFIX_LENGTH = 8

/** The first characters of a JWT's signature part; null for anything that is not a JWT. */
export function signaturePrefix(jwt: string | undefined | null): string | null {
  if (!jwt) return null
  const parts = jwt.split('.')
  return parts.length === 3 && parts[2] ? parts[2].slice(0, SIGNATURE_PREFIX_LENGTH) : null
}
