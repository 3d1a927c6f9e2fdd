// A loopback stand-in for the Supabase CLI's Kong on 127.0.0.1:54321, in front of ONE Stratum project.
// Plain node:http / node:net, no dependencies.
//
//   http://127.0.0.1:54321/rest/v1/todos  ->  http://<upstream>/<prefix>/rest/v1/todos   (prefix: /projects/<ref>)
//   ws://127.0.0.1:54321/realtime/v1/websocket?apikey=..&vsn=2.0.0  ->  same rewrite, upgrade piped as raw bytes
//
// What it changes, and only that:
//   - the path gets the project's prefix (path-style project URLs), and Host is set to the upstream listener
//     (or to `hostHeader`, e.g. `<ref>.<STRATUM_PROJECT_DOMAIN>` for host-style project URLs);
//   - an `apikey` header or `apikey` query parameter that is one of `keys`' left sides is replaced by its right
//     side. Stratum's gateway compares the apikey with the project's key TEXT (gateway/api-key.ts checkApiKey),
//     while the suites hard-code the CLI's anon key. Authorization headers and WebSocket frames pass untouched:
//     the CLI keys still verify as JWTs once the project's JWT secret is the CLI's;
//   - with `defaultKey`, a request that carries no apikey at all (header or query parameter) gets `apikey: defaultKey`:
//     the CLI's gateway lets some routes through without one (REST, storage, bare GoTrue), Stratum's gateway never does.
//     A function instead of a string is asked per request (with its headers) and may answer undefined: add none.
// Connection-level headers are dropped on plain HTTP; an upgrade's request line and headers are rewritten and
// then both sockets are piped, so Phoenix frames (JSON or binary, vsn 1.0.0 / 2.0.0) are never parsed.
import http from 'node:http'
import net from 'node:net'

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade'])

/**
 * @param {{ listenHost?: string, listenPort?: number, upstreamHost: string, upstreamPort: number,
 *           prefix?: string, hostHeader?: string, keys?: Map<string, string>,
 *           defaultKey?: string | ((headers: import('node:http').IncomingHttpHeaders) => string | undefined),
 *           log?: (line: string) => void }} options
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
export async function startProxy(options) {
  const { upstreamHost, upstreamPort, prefix = '', keys = new Map(), log = () => {} } = options
  const hostHeader = options.hostHeader ?? `${upstreamHost}:${upstreamPort}`
  const defaultKeyFor = (req) => (typeof options.defaultKey === 'function' ? options.defaultKey(req.headers) : options.defaultKey)
  const hasQueryKey = (url = '/') => url.includes('?') && new URLSearchParams(url.slice(url.indexOf('?') + 1)).has('apikey')
  const mapKey = (value) => (typeof value === 'string' && keys.has(value.trim()) ? keys.get(value.trim()) : value)

  const mapUrl = (url = '/') => {
    const q = url.indexOf('?')
    if (q === -1) return prefix + url
    const params = new URLSearchParams(url.slice(q + 1))
    const key = params.get('apikey')
    if (key !== null && keys.has(key)) params.set('apikey', keys.get(key))
    return `${prefix}${url.slice(0, q)}?${params.toString()}`
  }

  const server = http.createServer((req, res) => {
    const headers = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (HOP_BY_HOP.has(name)) continue
      headers[name] = name === 'apikey' ? mapKey(value) : value
    }
    headers.host = hostHeader
    const defaultKey = headers.apikey === undefined && !hasQueryKey(req.url) ? defaultKeyFor(req) : undefined
    if (defaultKey) headers.apikey = defaultKey
    const upstream = http.request(
      { host: upstreamHost, port: upstreamPort, method: req.method, path: mapUrl(req.url), headers },
      (answer) => {
        const out = {}
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out)
        answer.pipe(res)
      },
    )
    upstream.on('error', (error) => {
      log(`proxy: ${req.method} ${req.url}: ${error.message}`)
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: `proxy: ${error.message}` }))
    })
    req.pipe(upstream)
  })

  server.on('upgrade', (req, socket, head) => {
    const lines = [`${req.method} ${mapUrl(req.url)} HTTP/${req.httpVersion}`]
    const raw = req.rawHeaders
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]
      const lower = name.toLowerCase()
      if (lower === 'host') continue
      lines.push(`${name}: ${lower === 'apikey' ? mapKey(raw[i + 1]) : raw[i + 1]}`)
    }
    const defaultKey = req.headers.apikey === undefined && !hasQueryKey(req.url) ? defaultKeyFor(req) : undefined
    if (defaultKey) lines.push(`apikey: ${defaultKey}`)
    lines.push(`Host: ${hostHeader}`)
    const upstream = net.connect(upstreamPort, upstreamHost, () => {
      upstream.write(lines.join('\r\n') + '\r\n\r\n')
      if (head?.length) upstream.write(head)
      socket.pipe(upstream).pipe(socket)
    })
    const end = (error) => {
      if (error) log(`proxy: upgrade ${req.url}: ${error.message}`)
      socket.destroy()
      upstream.destroy()
    }
    upstream.on('error', end)
    socket.on('error', end)
    upstream.on('close', () => socket.destroy())
    socket.on('close', () => upstream.destroy())
  })

  const sockets = new Set()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${options.listenPort ?? 54321} is taken (a Supabase CLI stack running?)`) : error),
    )
    server.listen(options.listenPort ?? 54321, options.listenHost ?? '127.0.0.1', resolve)
  })
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
