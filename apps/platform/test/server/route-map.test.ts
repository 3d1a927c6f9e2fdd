import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HTTPMethods } from 'fastify'
import { API_ROUTES, type ApiRouteKey } from '@stratum/contracts'
import { MANAGEMENT_SURFACE } from '../../src/http/management-surface.js'
import { startTestPlatform, type TestPlatform } from './harness.js'

/**
 * The contracts' route map (packages/contracts/src/routes.ts) is what the dashboard's typed client compiles
 * against and what the OpenAPI document is generated from: every key must be a route this platform registers,
 * with that method, or a drifted map would let a wrong path compile.
 */
function mapKeys(): { key: ApiRouteKey; method: HTTPMethods; path: string }[] {
  return (Object.keys(API_ROUTES) as ApiRouteKey[]).map((key) => {
    const [method, path] = key.split(' ') as [HTTPMethods, string]
    return { key, method, path }
  })
}

/**
 * Whether the platform answers a map path with a route of its own. The path is matched the way a request is, each
 * {name} written as the literal ':name': the route found must give back every parameter under the name the map uses
 * (a renamed one comes back as {other: ':name'}). {...tail} and paths under a wildcard route (storage objects) match
 * that wildcard, never the root's (the gateway's catch-all, which would answer any path).
 */
function registered(method: HTTPMethods, path: string): boolean {
  const url = path.replace(/\{\.\.\.\w+\}/g, 'some/tail').replace(/\{(\w+)\}/g, ':$1')
  const found = t.platform.app.findRoute({ method, url }) as { params: Record<string, string> } | null
  if (!found) return false
  return Object.entries(found.params).every(([name, value]) => (name === '*' ? value !== url.slice(1) : value === `:${name}`))
}

let t: TestPlatform
beforeAll(async () => {
  t = await startTestPlatform()
})
afterAll(async () => {
  await t?.cleanup()
})

describe('the contracts route map', () => {
  it('holds the dashboard\'s routes and the Management API operations', () => {
    expect(mapKeys().length).toBeGreaterThan(200)
  })

  it('is served as an OpenAPI document to anyone, one operation per key', async () => {
    const response = await fetch(`${t.platform.url}/api/openapi.json`)
    expect(response.status).toBe(200)
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> }
    expect(document.openapi).toBe('3.0.3')
    expect(Object.values(document.paths).flatMap((methods) => Object.keys(methods))).toHaveLength(mapKeys().length)
    expect(document.paths['/v1/projects/{ref}']?.get?.operationId).toBe('getV1ProjectsRef')
  })

  it('names only routes the platform registers, with their method and parameter names', () => {
    const missing = mapKeys().filter(({ method, path }) => !registered(method, path))
    expect(missing.map((entry) => entry.key)).toEqual([])
  })

  it('would notice a drifted entry: a wrong path, method or parameter name', () => {
    expect(registered('GET', '/platform/projects/{ref}')).toBe(true)
    expect(registered('GET', '/platform/project/{ref}')).toBe(false)
    expect(registered('PATCH', '/platform/projects/{ref}/status')).toBe(false)
    expect(registered('GET', '/platform/projects/{id}')).toBe(false)
    expect(registered('POST', '/platform/storage/{ref}/objects/move')).toBe(true)
    expect(registered('POST', '/platform/organizations/{slug}/anything')).toBe(false)
  })
})

/** Every route the platform registers, as 'METHOD /path/{param}', read from Fastify's own route tree. */
function registeredRoutes(): string[] {
  const lines = t.platform.app.printRoutes({ commonPrefix: false }).split('\n')
  const parents: string[] = []
  const routes: string[] = []
  for (const line of lines) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    parents.length = depth
    const path = parents.join('') + match[2]!
    parents.push(match[2]!)
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS')) {
      routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`)
    }
  }
  return routes
}

describe('the Management API surface', () => {
  it('registers under /v1 exactly the claimed operations (management-surface.ts), save two aliases of our own', () => {
    const ours = registeredRoutes().filter((route) => route.split(' ')[1]!.startsWith('/v1/'))
    const claimed = MANAGEMENT_SURFACE.map((pair) => `${pair.method} ${pair.path}`)
    const unclaimed = ours.filter((route) => !claimed.includes(route))
    expect(unclaimed.sort()).toEqual([
      // The logs endpoint without its '.all' suffix, as older CLI versions call it.
      'GET /v1/projects/{ref}/analytics/endpoints/logs',
      // The reference has PUT; the spec allows the client helper's POST too.
      'POST /v1/projects/{ref}/api-keys/legacy',
    ])
    expect(claimed.filter((pair) => !ours.includes(pair))).toEqual([])
  })
})
