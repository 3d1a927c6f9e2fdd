import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * A strict Content-Security-Policy: scripts only from our own origin (the built dashboard has no
 * inline script), no plugins, no framing. Styles allow inline attributes because UI libraries set
 * them on elements.
 */
export async function registerSecurityHeaders(app: FastifyInstance, projectDomain: string | null = null): Promise<void> {
  // With STRATUM_PROJECT_DOMAIN, project APIs answer at {ref}.<domain>: the dashboard calls them (REST check, GraphiQL).
  const projectApis = projectDomain ? [`https://*.${projectDomain}`, `http://*.${projectDomain}`] : []
  await app.register(helmet, {
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
}
