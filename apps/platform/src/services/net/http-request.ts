import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { CheckedAddress } from './address-check.js'

/** The most of a response body kept in net._http_response.content; the rest is not read (pg_net keeps it all). */
export const MAX_RESPONSE_BYTES = 1024 * 1024

export interface OutboundRequest {
  method: string
  url: URL
  headers: Record<string, string>
  body: Buffer | null
  timeoutMs: number
}

/** What net._http_response records of one request. */
export interface DeliveryResult {
  status_code: number | null
  content_type: string | null
  headers: Record<string, string> | null
  content: string | null
  timed_out: boolean
  error_msg: string | null
}

/** Node's lookup answering with the checked address only: the connection goes where the check looked. */
function pinnedLookup(target: CheckedAddress): LookupFunction {
  const lookup = (_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }])
    else callback(null, target.address, target.family)
  }
  return lookup as unknown as LookupFunction
}

const failure = (message: string, timedOut = false): DeliveryResult => ({
  status_code: null,
  content_type: null,
  headers: null,
  content: null,
  timed_out: timedOut,
  error_msg: message,
})

/**
 * Sends one request to `target` (the address checked for the URL's host), as pg_net does with curl: redirects are not
 * followed (a 3xx is the answer), the whole exchange has one deadline, and the body is kept up to MAX_RESPONSE_BYTES.
 * Never throws: every failure is a result with error_msg.
 */
export function sendHttpRequest(request: OutboundRequest, target: CheckedAddress, signal: AbortSignal): Promise<DeliveryResult> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: DeliveryResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resolve(result)
    }
    const options: https.RequestOptions = {
      method: request.method,
      headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) },
      lookup: pinnedLookup(target),
      // Neither a proxy from the environment nor a shared pool of connections made for another address.
      agent: false,
      signal,
    }
    let outgoing: http.ClientRequest
    try {
      outgoing = request.url.protocol === 'https:' ? https.request(request.url, options) : http.request(request.url, options)
    } catch (error) {
      // An invalid header name or value, a method Node refuses.
      return resolve(failure((error as Error).message))
    }
    const deadline = setTimeout(() => {
      outgoing.destroy()
      finish(failure(`Timeout of ${request.timeoutMs} ms reached`, true))
    }, request.timeoutMs)
    outgoing.on('error', (error) => finish(failure(signal.aborted ? 'The request was stopped with the project' : error.message)))
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = []
      let size = 0
      const done = () => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
        }
        // Postgres text holds no NUL character.
        const content = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '')
        finish({ status_code: response.statusCode ?? null, content_type: response.headers['content-type'] ?? null, headers, content, timed_out: false, error_msg: null })
      }
      response.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return
        const kept = chunk.subarray(0, MAX_RESPONSE_BYTES - size)
        chunks.push(kept)
        size += kept.length
        // Enough kept: the rest is not waited for.
        if (size >= MAX_RESPONSE_BYTES) {
          done()
          response.destroy()
        }
      })
      response.on('end', done)
      response.on('error', (error) => finish(failure(error.message)))
    })
    outgoing.end(request.body ?? undefined)
  })
}
