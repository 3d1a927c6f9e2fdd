import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'
import type { Config } from '../config.js'

/*
 * Helmet's middleware, built once: @fastify/helmet built it again on every request (its CSP directives parsed and
 * checked each time, a tenth of a millisecond of every API call: issue 32), where the options here never change.
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
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)))
}
