// The floor of any Node hop in front of PostgREST (bench/gateway.ts): a node:http server that sends each request
// to the socket named in argv[2], less the path prefix argv[3], through an undici Pool and pipes the answer back. No checks, no log,
// nothing rewritten but the hop-by-hop headers. Run as its own process, as the platform is; prints its port.
import http from 'node:http'
import { Pool } from 'undici'

const prefix = process.argv[3] ?? ''
const upstream = new Pool('http://localhost', { socketPath: process.argv[2], connections: 16 })
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host'])

const server = http.createServer((req, res) => {
  const headers = {}
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value
  upstream.request({ method: req.method, path: req.url.startsWith(prefix) ? req.url.slice(prefix.length) : req.url, headers, body: req.method === 'GET' ? null : req }).then(
    (answer) => {
      const out = {}
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value
      res.writeHead(answer.statusCode, out)
      answer.body.pipe(res)
    },
    (error) => {
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: error.message }))
    },
  )
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.on('SIGTERM', () => process.exit(0))
