import type { ApiRouteKey, ApiRoutes } from '@stratum/contracts'
import { api } from './api'

/**
 * The dashboard's calls to the platform, by route: request('GET /platform/projects/{ref}', { params: { ref } }).
 * The key comes from the contracts' route map, so a path the map lacks, a missing {param}, a body of the wrong
 * shape or a misread answer fails to compile. fetch, the session cookie and errors are api()'s.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type PathOf<K> = K extends `${Method} ${infer P}` ? P : never
/** The names of a path's {placeholders}; {...rest} names a path tail. */
type ParamNames<P> = P extends `${string}{${infer Name}}${infer Rest}` ? (Name extends `...${infer Tail}` ? Tail : Name) | ParamNames<Rest> : never
type ParamValue = string | number

type ParamsOption<K> = [ParamNames<PathOf<K>>] extends [never] ? { params?: never } : { params: Record<ParamNames<PathOf<K>>, ParamValue> }
type BodyOption<R> = R extends { body: infer B } ? { body: B } : R extends { body?: infer B } ? { body?: B } : { body?: never }
type QueryOption<R> = R extends { query: infer Q } ? { query: Q } : R extends { query?: infer Q } ? { query?: Q } : { query?: never }

export type RouteOptions<K extends ApiRouteKey> = ParamsOption<K> & BodyOption<ApiRoutes[K]> & QueryOption<ApiRoutes[K]>
/** What a route's URL is made of. */
export type UrlOptions<K extends ApiRouteKey> = ParamsOption<K> & QueryOption<ApiRoutes[K]>
export type RequestOptions<K extends ApiRouteKey> = RouteOptions<K> & { signal?: AbortSignal }
/** Options may be left out only when the route needs none of them. */
type OptionsArg<O> = object extends O ? [options?: O] : [options: O]
export type RouteResponse<K extends ApiRouteKey> = ApiRoutes[K]['response']

interface LooseOptions {
  params?: Record<string, ParamValue>
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  signal?: AbortSignal
}

function split(route: string): { method: Method; path: string } {
  const space = route.indexOf(' ')
  return { method: route.slice(0, space) as Method, path: route.slice(space + 1) }
}

function fill(path: string, { params, query }: LooseOptions): string {
  const filled = path.replace(/\{(\.\.\.)?(\w+)\}/g, (_, tail: string | undefined, name: string) => {
    const value = params?.[name]
    // Unreachable from typed callers; a guard for values that are undefined at run time despite their type.
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`)
    // A tail keeps its slashes: each segment is encoded on its own.
    return tail ? String(value).split('/').map(encodeURIComponent).join('/') : encodeURIComponent(String(value))
  })
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.append(name, String(value))
  const text = search.toString()
  return text ? `${filled}?${text}` : filled
}

/** The URL of a route, for the few calls that cannot go through request() (streams, uploads, links). */
export function routeUrl<K extends ApiRouteKey>(route: K, ...[options]: OptionsArg<UrlOptions<K>>): string {
  return fill(split(route).path, (options as LooseOptions | undefined) ?? {})
}

export function request<K extends ApiRouteKey>(route: K, ...[options]: OptionsArg<RequestOptions<K>>): Promise<RouteResponse<K>> {
  const loose = (options as LooseOptions | undefined) ?? {}
  const { method, path } = split(route)
  return api<RouteResponse<K>>(fill(path, loose), { method, body: loose.body, signal: loose.signal })
}
