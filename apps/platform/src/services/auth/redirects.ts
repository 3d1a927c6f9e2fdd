import type { ProjectAuthSettings } from '@stratum/contracts'

/** `*` matches within one host label or path segment, `**` matches anything (Supabase's allow list globs). */
function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  const body = escaped.replace(/\*\*|\*/g, (star) => (star === '**' ? '.*' : '[^./]*'))
  return new RegExp(`^${body}$`)
}

/**
 * Where a link may send the user back to: the requested URL when it is on the site URL's origin or
 * matches the allow list, else the site URL (as GoTrue falls back to it).
 */
export function allowedRedirect(requested: string | null | undefined, settings: ProjectAuthSettings): string {
  if (!requested) return settings.site_url
  let url: URL
  try {
    url = new URL(requested)
  } catch {
    return settings.site_url
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return settings.site_url
  if (url.origin === new URL(settings.site_url).origin) return requested
  const allowed = settings.uri_allow_list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const normalized = url.href
  for (const entry of allowed) {
    if (entry === requested || entry === normalized) return requested
    if (entry.includes('*') && globToRegExp(entry).test(normalized)) return requested
    // An entry without wildcards admits the URLs below it (https://app.example.com admits /welcome).
    if (!entry.includes('*') && normalized.startsWith(entry.endsWith('/') ? entry : `${entry}/`)) return requested
  }
  return settings.site_url
}
