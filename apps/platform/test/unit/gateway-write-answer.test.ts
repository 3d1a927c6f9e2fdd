import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { writeAnswer, type FastRequest, type ServiceAnswer } from '../../src/gateway/fast-request.js'

/*
 * The project URL's fast path writes the in-process services' answers (auth, storage) itself: as Fastify's reply and
 * the tenant-origin guard would have (issue 32). Each case answers one real HTTP request with writeAnswer.
 */

const servers: http.Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

const quietLogger = { warn() {}, error() {}, info() {}, debug() {} } as unknown as FastRequest['logger']

async function answered(answer: () => ServiceAnswer, failed?: (error: Error) => ServiceAnswer): Promise<Response> {
  const server = http.createServer((req, res) => {
    const request: FastRequest = { req, res, ref: 'abcdefghijklmnopqrst', below: '/storage/v1/x', cors: { 'access-control-allow-origin': '*' }, ip: undefined, protocol: 'http', record() {}, logger: quietLogger }
    writeAnswer(request, answer(), failed)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
}

describe('writeAnswer (the fast path writes a service answer as the Fastify route did)', () => {
  it('sends an object as JSON with its length, the CORS headers and nosniff', async () => {
    const response = await answered(() => ({ status: 200, body: { ok: true } }))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('content-length')).toBe('11')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toBeNull()
    expect(await response.json()).toEqual({ ok: true })
  })

  it('reads header names in any case: a passive type is not sandboxed, an active one is, after a policy of its own', async () => {
    const passive = await answered(() => ({ status: 200, headers: { 'Content-Type': 'image/png' }, body: Buffer.from('png') }))
    expect(passive.headers.get('content-type')).toBe('image/png')
    expect(passive.headers.get('content-security-policy')).toBeNull()
    const active = await answered(() => ({ status: 200, headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': "img-src 'self'" }, body: '<h1>x</h1>' }))
    expect(active.headers.get('content-type')).toBe('text/html')
    expect(active.headers.get('content-security-policy')).toMatch(/^img-src 'self', sandbox;/)
    const untyped = await answered(() => ({ status: 200, body: Buffer.from('bytes') }))
    expect(untyped.headers.get('content-type')).toBe('application/octet-stream')
  })

  it("never sets the platform's cookies, and keeps the service's own", async () => {
    const response = await answered(() => ({ status: 200, headers: { 'set-cookie': 'stratum_session=stolen' }, body: {} }))
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('sends no length on a 204, and the length a HEAD-like answer names', async () => {
    const empty = await answered(() => ({ status: 204 }))
    expect(empty.status).toBe(204)
    expect(empty.headers.get('content-length')).toBeNull()
    const none = await answered(() => ({ status: 200 }))
    expect(none.headers.get('content-length')).toBe('0')
  })

  it("streams a body; a stream failing before its first byte answers `failed`'s error instead", async () => {
    const streamed = await answered(() => ({ status: 206, headers: { 'content-type': 'text/plain', 'content-range': 'bytes 0-2/10' }, stream: Readable.from([Buffer.from('abc')]) }))
    expect(streamed.status).toBe(206)
    expect(streamed.headers.get('content-range')).toBe('bytes 0-2/10')
    expect(await streamed.text()).toBe('abc')
    const failing = () => new Readable({ read() { this.destroy(new Error('the file cannot be read')) } })
    const refused = await answered(() => ({ status: 200, headers: { 'content-type': 'text/html', 'content-length': '10' }, stream: failing() }), (error) => ({ status: 500, body: { message: error.message } }))
    expect(refused.status).toBe(500)
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    expect(await refused.json()).toEqual({ message: 'the file cannot be read' })
  })

  it('cuts the connection when a stream fails after its first bytes: never a short answer that looks whole', async () => {
    let sent = false
    const stream = new Readable({
      read() {
        if (sent) return void setImmediate(() => this.destroy(new Error('disk gone')))
        sent = true
        this.push(Buffer.from('first part'))
      },
    })
    const response = await answered(() => ({ status: 200, headers: { 'content-type': 'text/plain', 'content-length': '100' }, stream }))
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
  })
})
