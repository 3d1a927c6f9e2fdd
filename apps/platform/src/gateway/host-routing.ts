import type { IncomingMessage } from 'node:http'

const API_PATH = /^\/(rest|graphql|auth|storage|functions|realtime)\/v1(\/|\?|$)/

/**
 * With STRATUM_PROJECT_DOMAIN set, `https://{ref}.<domain>/rest/v1/...` reaches the same gateway as
 * `/projects/{ref}/rest/v1/...`: the URL is rewritten before routing. Other hosts and paths pass unchanged.
 */
export function projectHostRewriter(domain: string | null): ((request: IncomingMessage) => string) | undefined {
  if (!domain) return undefined
  const suffix = `.${domain}`
  return (request) => {
    const url = request.url ?? '/'
    const host = (request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '')
    if (!host.endsWith(suffix) || !API_PATH.test(url)) return url
    const ref = host.slice(0, -suffix.length)
    return /^[a-z]{20}$/.test(ref) ? `/projects/${ref}${url}` : url
  }
}
