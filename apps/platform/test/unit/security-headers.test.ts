import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerSecurityHeaders } from '../../src/http/security-headers.js'

/*
 * The platform's security headers are helmet's, read once and set on every response in one loop (issue 32). The
 * replay must be exactly what helmet writes, on every kind of answer: a handler's, an error's, a 404, and one written
 * straight to the raw response (the MCP route's transport does so).
 */

const CONFIG = { projectDomain: null, projectPublicUrl: null, projectPort: 54321 }

async function appWithHeaders() {
  const app = Fastify()
  await registerSecurityHeaders(app, CONFIG)
  app.get('/ok', async () => ({ ok: true }))
  app.get('/fails', async () => {
    throw new Error('broken')
  })
  app.get('/raw', (_request, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/plain' })
    reply.raw.end('raw')
  })
  return app
}

describe('security headers', () => {
  it('sets the headers helmet sets, with its values, on every kind of answer', async () => {
    const app = await appWithHeaders()
    try {
      const answers = await Promise.all(['/ok', '/fails', '/missing', '/raw'].map((url) => app.inject({ method: 'GET', url })))
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 500, 404, 200])
      const first = answers[0]!.headers
      expect(first['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;" +
          "connect-src 'self' http://*:54321 https://*:54321 ws://*:54321 wss://*:54321;worker-src 'self' blob:;object-src 'none';" +
          "base-uri 'self';form-action 'self';frame-ancestors 'none'",
      )
      expect(first).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      })
      expect(first['strict-transport-security']).toBeUndefined()
      for (const answer of answers.slice(1)) {
        for (const name of Object.keys(first).filter((header) => header !== 'content-type' && header !== 'content-length' && header !== 'date' && header !== 'connection')) {
          expect(answer.headers[name], name).toBe(first[name])
        }
      }
    } finally {
      await app.close()
    }
  })
})
