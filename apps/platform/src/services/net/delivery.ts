import { isIP } from 'node:net'
import type { Config } from '../../config.js'
import { projectApiOrigin } from '../../gateway/public-url.js'
import { checkedAddress, RefusedTarget, type CheckedAddress } from './address-check.js'
import { sendHttpRequest, type DeliveryResult } from './http-request.js'

/** The longest a request may take, whatever its timeout_milliseconds says: the worker's slots are few. */
export const MAX_TIMEOUT_MS = 120_000

/** A row taken from net.http_request_queue. */
export type QueuedRequest = {
  id: string
  method: string
  url: string
  headers: Record<string, unknown> | null
  body: Buffer | null
  timeout_milliseconds: number
}

/** What a delivery needs of the installation: its network allowance, and where the project listener is. */
export interface DeliverySettings {
  allowPrivate: boolean
  /**
   * URL prefixes under which clients reach the project's own edge functions (`{project URL}/functions/v1/`), and where
   * the platform reaches its own project listener on this machine. The one exception to the private-address rule:
   * only these prefixes, only for their project, only below /functions/v1/.
   */
  ownFunctions(ref: string): { prefixes: string[]; listener: URL }
}

/** The settings of a running platform (its project listener's port is known once it listens: read per delivery). */
export function deliverySettings(config: Config): DeliverySettings {
  return {
    allowPrivate: config.netAllowPrivateHosts,
    ownFunctions(ref) {
      const port = config.projectPort
      const listenHost = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? '127.0.0.1' : config.host
      const origins = new Set([projectApiOrigin(config), `http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`])
      const prefixes = [...origins].map((origin) => `${new URL(origin).origin}/projects/${ref}/functions/v1/`)
      if (config.projectDomain) prefixes.push(`${new URL(projectApiOrigin(config)).protocol}//${ref}.${config.projectDomain}/functions/v1/`)
      const host = isIP(listenHost) === 6 ? `[${listenHost}]` : listenHost
      return { prefixes, listener: new URL(`http://${host}:${port}/projects/${ref}/functions/v1/`) }
    },
  }
}

/** The project's own function URL mapped to the platform's listener on this machine; null for any other URL. */
export function ownFunctionUrl(url: URL, ref: string, settings: DeliverySettings): URL | null {
  const { prefixes, listener } = settings.ownFunctions(ref)
  const prefix = prefixes.find((candidate) => url.href.startsWith(candidate))
  if (!prefix) return null
  // The URL parser already resolved `..` and `%2e%2e` segments. What follows the prefix must stay a path below it:
  // a rest beginning with '/' ('.../functions/v1///169.254.169.254/') would resolve as another host or the root of
  // the listener, which nothing checked. The mapped URL must still be under the listener's functions path.
  const rest = url.href.slice(prefix.length)
  if (rest.startsWith('/') || rest.startsWith('\\')) return null
  const mapped = new URL(rest, listener)
  return mapped.origin === listener.origin && mapped.pathname.startsWith(listener.pathname) ? mapped : null
}

/** Sends one queued request; never throws (refusals and failures are results with error_msg, as pg_net records them). */
export async function deliver(request: QueuedRequest, ref: string, settings: DeliverySettings, signal: AbortSignal): Promise<DeliveryResult> {
  const refused = (message: string): DeliveryResult => ({ status_code: null, content_type: null, headers: null, content: null, timed_out: false, error_msg: message })
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return refused(`URL using bad/illegal format or missing URL: ${request.url}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused(`Unsupported protocol: ${url.protocol.replace(':', '')}`)
  if (url.username || url.password) return refused('Credentials in the URL are not supported: send an Authorization header')
  let target: CheckedAddress
  const own = ownFunctionUrl(url, ref, settings)
  if (own) {
    url = own
    const host = url.hostname.replace(/^\[|\]$/g, '')
    target = { address: host, family: isIP(host) === 6 ? 6 : 4 }
  } else {
    try {
      target = await checkedAddress(url.hostname, settings.allowPrivate)
    } catch (error) {
      if (error instanceof RefusedTarget) return refused(error.message)
      throw error
    }
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value !== null && value !== undefined) headers[name] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  const timeoutMs = Math.min(Math.max(1, request.timeout_milliseconds), MAX_TIMEOUT_MS)
  return sendHttpRequest({ method: request.method.toUpperCase(), url, headers, body: request.body, timeoutMs }, target, signal)
}
