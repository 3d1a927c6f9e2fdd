import net from 'node:net'

/** True when nothing listens on the port (on loopback, where our instances listen). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** The first free port at or above `start` that is not in `taken`. */
export async function findFreePort(start: number, taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (let port = start; port < 65_535; port++) {
    if (!taken.has(port) && (await isPortFree(port))) return port
  }
  throw new Error(`No free port at or above ${start}`)
}
