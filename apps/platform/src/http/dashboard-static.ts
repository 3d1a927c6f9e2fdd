import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { isApiPath } from './auth-hook.js'

/**
 * Serves the built dashboard. Client-side routes (/project/abc/sql...) get index.html; unknown
 * API paths get a JSON 404.
 */
export async function registerDashboard(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html')
  const hasDashboard = fs.existsSync(indexFile)
  if (hasDashboard) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: 'index.html', // '/' is the app itself
      // Looked up per request, so a rebuild under a running server is served at once; misses
      // fall through to the not-found handler below.
      wildcard: true,
      // Hashed assets never change; index.html must always be fresh.
      setHeaders(res, filePath) {
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || request.method !== 'GET') {
      return reply.code(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}` })
    }
    if (!hasDashboard) {
      return reply.code(503).type('text/plain').send('The dashboard is not built. Run `npm run build` (npm start does it for you).')
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile))
  })
}
