import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HTTPMethods } from 'fastify'
import type { ApiRouteKey } from '@stratum/contracts'
import { MANAGEMENT_SURFACE } from '../../src/http/management-surface.js'
import { startTestPlatform, type TestPlatform } from './harness.js'

/**
 * The contracts' route map (packages/contracts/src/routes.ts) is what the dashboard's typed client compiles
 * against: every key must be a route this platform registers, with that method, or a drifted map would let a
 * wrong path compile. The map is types only, so its keys are read from its source.
 */
const MAP_FILE = new URL('../../../../packages/contracts/src/routes.ts', import.meta.url)
const KEY = /^\s*'((GET|POST|PUT|PATCH|DELETE) (\/[^']*))':/gm

function mapKeys(): { key: ApiRouteKey; method: HTTPMethods; path: string }[] {
  const source = fs.readFileSync(MAP_FILE, 'utf8')
  return [...source.matchAll(KEY)].map((match) => ({ key: match[1] as ApiRouteKey, method: match[2] as HTTPMethods, path: match[3]! }))
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
  it('is read from its source: one entry per key, none twice', () => {
    const keys = mapKeys().map((entry) => entry.key)
    expect(keys.length).toBeGreaterThan(100)
    expect(new Set(keys).size).toBe(keys.length)
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
