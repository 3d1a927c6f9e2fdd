import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * What keeps the project URL's content (functions' pages, storage objects, PostgREST's custom media
 * types: all written by tenants) away from the platform (DESIGN.md "Isolation", issue 25 item 2). The
 * project URL has an origin of its own, but cookies ignore ports and a `{ref}.<domain>` host may set
 * cookies for its parent domain, so:
 * - the platform's cookies never reach a service (a function would read the dashboard's session), and
 *   nothing answered here may set or replace them;
 * - every answer says `nosniff`, and an active document (HTML, XML, SVG, or no type at all) is sandboxed:
 *   no script runs with the project origin, no form or popup leaves it.
 */

/** `stratum_session` and any cookie the platform may add later; `__Host-`/`__Secure-` prefixes included. */
export function isPlatformCookieName(name: string): boolean {
  return /^(?:__host-|__secure-)?stratum/i.test(name.trim())
}

/** The Cookie header without the platform's cookies (undefined when nothing is left). */
export function withoutPlatformCookies(header: string | undefined): string | undefined {
  if (!header) return header
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !isPlatformCookieName(part.split('=')[0] ?? ''))
  return kept.length ? kept.join('; ') : undefined
}

/**
 * Types a browser shows without running anything of the page's: everything else (HTML, XML, SVG, unknown
 * types, and a list such as `text/plain, text/html`, of which browsers take the last) is sandboxed.
 */
const PASSIVE_CONTENT = /^(?:text\/(?:plain|csv|css|markdown|event-stream)|application\/(?:json|[\w.+-]+\+json|octet-stream|pdf|zip|gzip|x-ndjson|wasm|javascript|vnd\.[\w.+-]+|openapi\+json)|image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|audio\/[\w.+-]+|video\/[\w.+-]+|font\/[\w.+-]+|multipart\/[\w.+-]+)$/
/** No script, no same-origin, no forms, no popups, no top navigation: a static page at most. */
export const TENANT_DOCUMENT_CSP = "sandbox; default-src 'none'; img-src * data: blob:; media-src * data: blob:; style-src * 'unsafe-inline'; font-src * data:"

function isActiveContent(contentType: unknown): boolean {
  if (contentType === undefined || contentType === null || contentType === '' || Array.isArray(contentType)) return true
  const value = String(contentType)
  if (value.includes(',')) return true
  return !PASSIVE_CONTENT.test(value.split(';')[0]!.trim().toLowerCase())
}

/** Set-Cookie values without the platform's cookies; null when there were none to drop (the header stays as it is). */
export function withoutPlatformSetCookies(cookies: unknown): string[] | null {
  if (cookies === undefined) return null
  const list = (Array.isArray(cookies) ? cookies : [cookies]).map(String)
  const kept = list.filter((cookie) => !isPlatformCookieName(cookie.split('=')[0] ?? ''))
  return kept.length === list.length ? null : kept
}

/**
 * The Content-Security-Policy of an answer whose content is active: its own, if any, then the sandbox (a second CSP
 * header only narrows what the first allows, so a tenant's own policy stays). Undefined for passive content: the
 * answer's policy, if any, stays as it is.
 */
export function guardedPolicy(contentType: unknown, own: unknown): string | string[] | undefined {
  if (!isActiveContent(contentType)) return undefined
  return own === undefined ? TENANT_DOCUMENT_CSP : [...(Array.isArray(own) ? own : [own]).map(String), TENANT_DOCUMENT_CSP]
}

function dropPlatformSetCookies(reply: FastifyReply): void {
  const kept = withoutPlatformSetCookies(reply.getHeader('set-cookie'))
  if (kept === null) return
  // reply.header() appends to set-cookie: the list is replaced by removing it first.
  reply.removeHeader('set-cookie')
  if (kept.length) reply.header('set-cookie', kept)
}

/** The headers every answer at the project URL gets (also for raw answers written outside Fastify's reply). */
export function tenantContentHeaders(contentType: unknown): Record<string, string> {
  return isActiveContent(contentType)
    ? { 'x-content-type-options': 'nosniff', 'content-security-policy': TENANT_DOCUMENT_CSP }
    : { 'x-content-type-options': 'nosniff' }
}

export function registerTenantOriginGuards(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const cookie = request.headers.cookie
    if (cookie === undefined) return
    const kept = withoutPlatformCookies(cookie)
    if (kept === undefined) delete request.raw.headers.cookie
    else request.raw.headers.cookie = kept
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    dropPlatformSetCookies(reply)
    const policy = guardedPolicy(reply.getHeader('content-type'), reply.getHeader('content-security-policy'))
    if (policy !== undefined) reply.header('content-security-policy', policy)
    reply.header('x-content-type-options', 'nosniff')
    return payload
  })
}
