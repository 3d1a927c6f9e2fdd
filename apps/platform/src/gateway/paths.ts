import type { IncomingHttpHeaders } from 'node:http'

/** The key's query parameter is the gateway's (as Kong's hide_credentials): PostgREST would read it as a filter. */
export function withoutApiKeyParam(path: string): string {
  const mark = path.indexOf('?')
  if (mark < 0) return path
  const kept = path
    .slice(mark + 1)
    .split('&')
    .filter((part) => part && paramName(part) !== 'apikey')
  return kept.length ? `${path.slice(0, mark)}?${kept.join('&')}` : path.slice(0, mark)
}

function paramName(part: string): string {
  const name = part.split('=')[0]!.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The apikey a request presents: its header, else its `apikey` query parameter (links, WebSockets). */
export function presentedApiKey(headers: IncomingHttpHeaders, below: string): string | undefined {
  const header = headerText(headers.apikey)
  if (header !== undefined) return header
  const mark = below.indexOf('?')
  return mark < 0 ? undefined : (new URLSearchParams(below.slice(mark + 1)).get('apikey') ?? undefined)
}

/** The path a service gets: what follows its prefix (`/rest/v1`), without the gateway's apikey parameter. */
export function servicePath(below: string): string {
  return withoutApiKeyParam(below.slice(below.indexOf('/', 1) + 3)) || '/'
}
