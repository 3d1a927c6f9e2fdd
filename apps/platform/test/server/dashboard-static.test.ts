import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { login, startTestPlatform, type TestPlatform } from './harness.js'

/**
 * The built dashboard as the platform serves it (STRATUM_DASHBOARD_DIST points at a small dist made
 * here, the way the build lays it out): precompressed siblings chosen by Accept-Encoding, long-lived
 * caching for hashed assets only, index.html for client-side routes.
 */
const ASSET = '/assets/app-Ab12Cd34.js'
const ASSET_CONTENT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: 'row ${i}' }`).join(', ')}]\n`
/** Too small to be worth compressing: the build writes no siblings for it. */
const SMALL_ASSET = '/assets/tiny-Ef56Gh78.js'
const SMALL_CONTENT = 'export const tiny = 1\n'
const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body></body></html>\n'

let distDir: string
let t: TestPlatform

function writeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-dist-'))
  fs.mkdirSync(path.join(dir, 'assets'))
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML)
  fs.writeFileSync(path.join(dir, 'theme-init.js'), 'document.documentElement.dataset.theme = "dark"\n')
  const asset = path.join(dir, ASSET)
  fs.writeFileSync(asset, ASSET_CONTENT)
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(ASSET_CONTENT))
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(ASSET_CONTENT))
  fs.writeFileSync(path.join(dir, SMALL_ASSET), SMALL_CONTENT)
  return dir
}

/** A raw GET (fetch would decode the body and pick its own Accept-Encoding). */
function get(urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${t.platform.url}${urlPath}`, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.on('error', reject)
  })
}

beforeAll(async () => {
  distDir = writeDist()
  t = await startTestPlatform({ STRATUM_DASHBOARD_DIST: distDir })
})
afterAll(async () => {
  await t?.cleanup()
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true })
})

describe('dashboard assets', () => {
  it('are sent as brotli when the browser accepts it, with long-lived caching', async () => {
    const response = await get(ASSET, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/)
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body.length).toBeLessThan(Buffer.byteLength(ASSET_CONTENT))
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(ASSET_CONTENT)
  })

  it('are sent as gzip when brotli is not accepted', async () => {
    for (const acceptEncoding of ['gzip, deflate', 'br;q=0, gzip']) {
      const response = await get(ASSET, { 'accept-encoding': acceptEncoding })
      expect(response.status, acceptEncoding).toBe(200)
      expect(response.headers['content-encoding'], acceptEncoding).toBe('gzip')
      expect(response.headers.vary).toMatch(/accept-encoding/i)
      expect(zlib.gunzipSync(response.body).toString()).toBe(ASSET_CONTENT)
    }
  })

  it('are sent as they are without Accept-Encoding, still varying on it', async () => {
    const response = await get(ASSET)
    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBeUndefined()
    // A shared cache must not hand this plain copy to a browser that accepts brotli.
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body.toString()).toBe(ASSET_CONTENT)
  })

  it('without compressed siblings are sent as they are, whatever is accepted', async () => {
    const response = await get(SMALL_ASSET, { 'accept-encoding': 'gzip, deflate, br' })
    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body.toString()).toBe(SMALL_CONTENT)
  })

  it('that do not exist answer 404, not the app page', async () => {
    const response = await get('/assets/app-Old00000.js', { 'accept-encoding': 'gzip, br' })
    expect(response.status).toBe(404)
    expect(response.headers['content-type']).toMatch(/application\/json/)
    expect(JSON.parse(response.body.toString())).toEqual({ message: 'No file /assets/app-Old00000.js' })
  })
})

describe('the app page', () => {
  it('is never cached without revalidation, at / and on client-side routes', async () => {
    for (const urlPath of ['/', '/project/abcdefghijklmnopqrst/sql', '/organizations']) {
      const response = await get(urlPath, { 'accept-encoding': 'gzip, br' })
      expect(response.status, urlPath).toBe(200)
      expect(response.headers['content-type'], urlPath).toMatch(/text\/html/)
      expect(response.headers['cache-control'], urlPath).toBe('no-cache')
      expect(response.body.toString(), urlPath).toBe(INDEX_HTML)
    }
  })

  it('keeps files outside assets (not content-hashed) revalidated', async () => {
    const response = await get('/theme-init.js')
    expect(response.status).toBe(200)
    expect(response.headers['cache-control']).toBe('no-cache')
  })

  it('is not what unknown API paths get', async () => {
    const response = await get('/platform/no-such-route', { cookie: await login(t) })
    expect(response.status).toBe(404)
    expect(JSON.parse(response.body.toString())).toEqual({ message: 'No route for GET /platform/no-such-route' })
  })
})
