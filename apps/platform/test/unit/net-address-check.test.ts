import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { checkedAddress, RefusedTarget } from '../../src/services/net/address-check.js'
import { deliver, ownFunctionUrl, type DeliverySettings } from '../../src/services/net/delivery.js'

/** A resolver answering from a table, as DNS would (no network in unit tests). */
const resolver = (answers: Record<string, string[]>) =>
  (async (name: string) => {
    const addresses = answers[name]
    if (!addresses) throw new Error(`ENOTFOUND ${name}`)
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }) as never

const hostOf = (url: string) => new URL(url).hostname

describe('net: the address check of webhooks and net.http_* requests', () => {
  const refused = [
    'http://127.0.0.1/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    // Decimal, hex and short IPv4 forms: the URL parser makes them dotted, and the dotted form is checked.
    'http://2130706433/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a00:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:c0a8:101::1]/',
    'http://[fd12:3456::1]/',
    'http://[fe80::1]/',
    // IPv4-translated (RFC 2765) and local-use NAT64 (RFC 8215, the IPv4 address in the last 32 bits).
    'http://[::ffff:0:127.0.0.1]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    'http://[64:ff9b:1::a9fe:a9fe]/',
    'http://[64:ff9b:1:ab::a00:1]/',
    // Teredo: the client's IPv4 address (inverted) is only a claim, behind any NAT: none of 2001::/32 is public.
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'http://[2001::5db8:d822]/',
    // Benchmarking, IETF protocol assignments, documentation, the 6to4 relay anycast, multicast, reserved, broadcast.
    'http://198.18.0.1/',
    'http://198.19.255.254/',
    'http://192.0.0.8/',
    'http://192.0.2.1/',
    'http://198.51.100.7/',
    'http://203.0.113.9/',
    'http://192.88.99.1/',
    'http://224.0.0.251/',
    'http://239.255.255.250/',
    'http://240.0.0.1/',
    'http://255.255.255.255/',
    'http://[::ffff:198.18.0.1]/',
    // IPv6 multicast, the discard prefix and documentation.
    'http://[ff02::1]/',
    'http://[ff05::1:3]/',
    'http://[100::1]/',
    'http://[2001:db8::1]/',
  ]
  it.each(refused)('refuses %s when private hosts are not allowed', async (url) => {
    await expect(checkedAddress(hostOf(url), false, resolver({}))).rejects.toThrow(RefusedTarget)
  })

  // Public hosts, including a public IPv4 address behind each embedding, stay reachable.
  const reachable = [
    'http://93.184.216.34/',
    'http://198.17.255.1/',
    'http://198.20.0.1/',
    'http://223.255.255.1/',
    'http://[2606:4700::1111]/',
    'http://[::ffff:93.184.216.34]/',
    'http://[64:ff9b::93.184.216.34]/',
    'http://[64:ff9b:1::5db8:d822]/',
    'http://[2002:5db8:d822::1]/',
    'http://[2001:4860:4860::8888]/',
    'http://[2001:db9::1]/',
    'http://[101::1]/',
  ]
  it.each(reachable)('lets %s through', async (url) => {
    const host = hostOf(url).replace(/^\[|\]$/g, '')
    await expect(checkedAddress(hostOf(url), false, resolver({}))).resolves.toMatchObject({ family: host.includes(':') ? 6 : 4 })
  })

  it('refuses a name when any of its addresses is private, and connects to the address it checked', async () => {
    const dns = resolver({ 'mixed.example': ['93.184.216.34', '10.0.0.7'], 'public.example': ['93.184.216.34'], localhost: ['127.0.0.1'] })
    await expect(checkedAddress('mixed.example', false, dns)).rejects.toThrow(/10\.0\.0\.7/)
    await expect(checkedAddress('localhost', false, dns)).rejects.toThrow(RefusedTarget)
    await expect(checkedAddress('public.example', false, dns)).resolves.toEqual({ address: '93.184.216.34', family: 4 })
    await expect(checkedAddress('[2606:4700::1111]', false, dns)).resolves.toEqual({ address: '2606:4700::1111', family: 6 })
  })

  it('allows private hosts when the installation does', async () => {
    await expect(checkedAddress('127.0.0.1', true, resolver({}))).resolves.toEqual({ address: '127.0.0.1', family: 4 })
  })

  it('refuses an unresolvable name', async () => {
    await expect(checkedAddress('nowhere.invalid', false, resolver({}))).rejects.toThrow('Could not resolve host: nowhere.invalid')
  })
})

describe('net: delivery', () => {
  const settings = (allowPrivate: boolean, listenerPort = 54_321): DeliverySettings => ({
    allowPrivate,
    ownFunctions: (ref) => ({
      prefixes: [`http://localhost:${listenerPort}/projects/${ref}/functions/v1/`],
      listener: new URL(`http://127.0.0.1:${listenerPort}/projects/${ref}/functions/v1/`),
    }),
  })
  const ref = 'abcdefghijabcdefghij'
  const request = (url: string) => ({ id: '1', method: 'GET', url, headers: {}, body: null, timeout_milliseconds: 2_000 })

  it('never connects to a refused address, and records why', async () => {
    let reached = 0
    const server = http.createServer((_request, response) => {
      reached++
      response.end('hi')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const url = `http://127.0.0.1:${port}/`
      const result = await deliver(request(url), ref, settings(false), new AbortController().signal)
      expect(result).toMatchObject({ status_code: null, timed_out: false })
      expect(result.error_msg).toMatch(/^Refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback or private address/)
      // The other spellings of this host, and the cloud's metadata service: `localhost` through the system's resolver.
      for (const [other, address] of [
        [`http://localhost:${port}/`, /^(127\.0\.0\.1|::1)$/],
        [`http://[::ffff:127.0.0.1]:${port}/`, /^::ffff:7f00:1$/],
        [`http://[::ffff:0:127.0.0.1]:${port}/`, /^::ffff:0:7f00:1$/],
        ['http://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254$/],
      ] as const) {
        const refusal = await deliver(request(other), ref, settings(false), new AbortController().signal)
        expect(refusal, other).toMatchObject({ status_code: null, timed_out: false, content: null })
        expect(/ resolves to (\S+), a loopback or private address/.exec(refusal.error_msg ?? '')?.[1], other).toMatch(address)
      }
      expect(reached).toBe(0)
      const allowed = await deliver(request(url), ref, settings(true), new AbortController().signal)
      expect(allowed).toMatchObject({ status_code: 200, content: 'hi', error_msg: null })
      expect(reached).toBe(1)
    } finally {
      server.close()
    }
  })

  it("maps only the project's own function URLs onto the platform's listener", () => {
    const own = ownFunctionUrl(new URL(`http://localhost:54321/projects/${ref}/functions/v1/hello?x=1`), ref, settings(false))
    expect(own?.href).toBe(`http://127.0.0.1:54321/projects/${ref}/functions/v1/hello?x=1`)
    for (const other of [
      `http://localhost:54321/projects/zzzzzzzzzzzzzzzzzzzz/functions/v1/hello`,
      `http://localhost:54321/projects/${ref}/rest/v1/secrets`,
      `http://localhost:54321/projects/${ref}/functions/v1/../../${ref}/rest/v1/x`,
      `http://localhost:54321/projects/${ref}/functions/v1/%2e%2e/%2e%2e/auth/v1/admin/users`,
      `http://localhost:1/projects/${ref}/functions/v1/hello`,
      // An empty segment after the prefix would resolve as another host (the cloud's metadata) or the listener's root.
      `http://localhost:54321/projects/${ref}/functions/v1///169.254.169.254/latest/meta-data/`,
      `http://localhost:54321/projects/${ref}/functions/v1//projects/zzzzzzzzzzzzzzzzzzzz/rest/v1/x`,
    ]) {
      expect(ownFunctionUrl(new URL(other), ref, settings(false)), other).toBeNull()
    }
  })
})
