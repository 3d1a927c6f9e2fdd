import type { Config } from '../config.js'

/**
 * The base URL of a project's API as clients outside see it: `{ref}.<domain>` when a project domain is
 * set, else `/projects/{ref}` on the platform's public URL (STRATUM_PUBLIC_URL) or, without one, the
 * host the request came to (`requestHost`) or the address the platform listens on.
 */
export function publicApiBase(config: Config, ref: string, requestHost?: string, requestProtocol?: string): string {
  const origin = config.publicUrl ? new URL(config.publicUrl) : null
  const protocol = origin ? origin.protocol.replace(':', '') : requestProtocol === 'https' ? 'https' : 'http'
  if (config.projectDomain) return `${protocol}://${ref}.${config.projectDomain}`
  const host = origin?.host ?? requestHost ?? `${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`
  return `${protocol}://${host}/projects/${ref}`
}
