import type { FastifyInstance } from 'fastify'

/** How often, while closing, connections that went idle after their last answer are closed. */
const IDLE_SWEEP_MS = 50

/**
 * Stops the HTTP server at shutdown: no new requests, requests in flight answered. close() alone closes
 * the connections idle at that moment, but one whose request was in flight stays open once answered,
 * idle, until the client or the keep-alive timeout (72 s in Fastify) ends it: a browser tab kept a
 * stopping platform alive that long, and a new start on the same data directory waited for it.
 */
export async function closeServer(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS)
  try {
    await app.close()
  } finally {
    clearInterval(sweep)
  }
}
