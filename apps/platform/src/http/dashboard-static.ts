import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { isApiPath } from './auth-hook.js'

/**
 * Serves the built dashboard. Client-side routes (/project/abc/sql...) get index.html; unknown
 * API paths, and asset files that do not exist (a tab open across a rebuild asks for old chunk
 * names), get a 404.
 *
 * Files go out precompressed: the build writes `<file>.br` and `<file>.gz` beside each text file
 * (apps/dashboard/vite.config.ts), and the request's Accept-Encoding picks brotli, else gzip, else
 * the file itself, with `Vary: Accept-Encoding`. Nothing is compressed per request.
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
      preCompressed: true,
      // Hashed assets (their name changes with their content) never change; everything else
      // (index.html, theme-init.js) must be revalidated. filePath may be the .br/.gz sibling.
      setHeaders(res, filePath) {
        res.header('Cache-Control', isHashedAsset(filePath, distDir) ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || request.method !== 'GET') {
      return reply.code(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}` })
    }
    if (request.url.startsWith('/assets/')) {
      return reply.code(404).send({ message: `No file ${request.url.split('?')[0]}` })
    }
    if (!hasDashboard) {
      return reply.code(503).type('text/plain').send('The dashboard is not built. Run `npm run build` (npm start does it for you).')
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile))
  })
}

/** Vite writes content-hashed files, and only those, under dist/assets. */
function isHashedAsset(filePath: string, distDir: string): boolean {
  return path.relative(distDir, filePath).startsWith(`assets${path.sep}`)
}
