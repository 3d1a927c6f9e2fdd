import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { Config } from '../config.js'

/*
 * Helmet's headers, made once: @fastify/helmet built its middleware again on every request (its CSP directives parsed
 * and checked each time, a tenth of a millisecond of every API call: issue 32), where the options here never change.
 */

/**
 * A strict Content-Security-Policy: scripts only from our own origin (the built dashboard has no
 * inline script), no plugins, no framing. Styles allow inline attributes because UI libraries set
 * them on elements.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'projectDomain' | 'projectPublicUrl' | 'projectPort'>): Promise<void> {
  // The dashboard calls the project APIs (REST check, GraphiQL) on their own origin: {ref}.<domain>, the
  // public project URL behind a proxy, or the project listener's port on whatever host name the dashboard has.
  const projectHttp = config.projectDomain
    ? [`https://*.${config.projectDomain}`, `http://*.${config.projectDomain}`]
    : config.projectPublicUrl
      ? [config.projectPublicUrl]
      : [`http://*:${config.projectPort}`, `https://*:${config.projectPort}`]
  // And their WebSockets (the Realtime inspector): an http source does not match a ws URL (CSP3 scheme matching).
  const projectApis = [...projectHttp, ...projectHttp.map((source) => source.replace(/^http/, 'ws'))]
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...projectApis],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Same-origin resources only; nothing of ours is meant to be embedded elsewhere.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    hsts: false, // served over plain HTTP on loopback by default; a TLS proxy sets its own
  })
  // Nothing in the options depends on the request (no nonce): helmet's headers are read once off a response it wrote,
  // and every response gets them in one loop, not through helmet's chain of eleven middlewares (issue 32).
  const headers = headersWrittenBy(securityHeaders)
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value)
    done()
  })
}

/** The headers a connect-style middleware sets on a response, and that it sets them synchronously. */
function headersWrittenBy(middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void) {
  const request = new IncomingMessage(new Socket())
  const response = new ServerResponse(request)
  let called = false
  middleware(request, response, (error) => {
    if (error) throw error
    called = true
  })
  if (!called) throw new Error('the security headers middleware did not finish synchronously')
  return response.getHeaderNames().map((name) => [name, response.getHeader(name)!] as const)
}
