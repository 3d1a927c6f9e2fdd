import type { Config } from '../config.js'

/**
 * The base URL of a project's API as clients outside see it. Never on the dashboard's origin (DESIGN.md
 * "Isolation": tenant content must not script the dashboard), so, in order:
 * - `{ref}.<domain>` when STRATUM_PROJECT_DOMAIN is set;
 * - `{STRATUM_PROJECT_PUBLIC_URL}/projects/{ref}` behind a reverse proxy;
 * - else `/projects/{ref}` on the project listener's own port (STRATUM_PROJECT_PORT), on the host name the
 *   request came to (`requestHost`), the public URL's, or the address the platform listens on.
 */
export function publicApiBase(config: Config, ref: string, requestHost?: string, requestProtocol?: string): string {
  const origin = config.publicUrl ? new URL(config.publicUrl) : null
  const protocol = origin ? origin.protocol.replace(':', '') : requestProtocol === 'https' ? 'https' : 'http'
  if (config.projectDomain) return `${protocol}://${ref}.${config.projectDomain}`
  return `${projectApiOrigin(config, requestHost, requestProtocol)}/projects/${ref}`
}

/** The origin of the project listener as clients reach it (see publicApiBase). */
export function projectApiOrigin(config: Config, requestHost?: string, requestProtocol?: string): string {
  if (config.projectPublicUrl) return config.projectPublicUrl
  const origin = config.publicUrl ? new URL(config.publicUrl) : null
  const protocol = origin ? origin.protocol.replace(':', '') : requestProtocol === 'https' ? 'https' : 'http'
  const hostname = origin?.hostname ?? hostnameOf(requestHost) ?? (config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host)
  return `${protocol}://${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}:${config.projectPort}`
}

/** `localhost:8000` -> `localhost`, `[::1]:8000` -> `[::1]`. */
function hostnameOf(host: string | undefined): string | null {
  if (!host) return null
  try {
    return new URL(`http://${host}`).hostname || null
  } catch {
    return null
  }
}
