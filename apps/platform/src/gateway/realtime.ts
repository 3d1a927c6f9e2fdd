import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'

/** The close reason supabase-js's realtime client gets (and logs) until realtime is served. */
export const REALTIME_UNAVAILABLE_REASON = 'Realtime is not available on this platform yet'
/** 4000-4999 are for applications (RFC 6455 §7.4.2). */
const REALTIME_UNAVAILABLE_CODE = 4001

const REALTIME_PATH = /^\/projects\/[a-z]{20}\/realtime\/v1\//

/**
 * Realtime is a later issue. Until then a client's WebSocket is accepted and closed at once with a
 * clear reason, rather than failing as a transport error the user cannot read.
 */
export function attachRealtimePlaceholder(server: Server): () => void {
  const sockets = new WebSocketServer({ noServer: true })
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!REALTIME_PATH.test(request.url ?? '')) {
      socket.destroy()
      return
    }
    sockets.handleUpgrade(request, socket, head, (client) => client.close(REALTIME_UNAVAILABLE_CODE, REALTIME_UNAVAILABLE_REASON))
  }
  server.on('upgrade', onUpgrade)
  return () => {
    server.off('upgrade', onUpgrade)
    sockets.close()
  }
}
