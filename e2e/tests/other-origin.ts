import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'

const require = createRequire(import.meta.url)
const SUPABASE_BUNDLE = require.resolve('@supabase/supabase-js/dist/umd/supabase.js', { paths: [process.cwd(), '../apps/dashboard'] })

/**
 * A second origin, as a user's own web app: every path answers a small page that loads the
 * supabase-js browser bundle (from node_modules, served here), so calls to the project URL cross
 * origins and need CORS.
 */
export async function otherOrigin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === '/supabase.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(fs.readFileSync(SUPABASE_BUNDLE))
      return
    }
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<!doctype html><title>Another app</title><script src="/supabase.js"></script><p>Another app</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
