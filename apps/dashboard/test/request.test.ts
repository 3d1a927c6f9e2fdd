import { afterEach, describe, expect, it, vi } from 'vitest'
import { request, routeUrl } from '../src/data/request'

/** The typed client builds the URL from the route map's key; fetch and errors stay api()'s. */
describe('request()', () => {
  afterEach(() => vi.unstubAllGlobals())

  function stubFetch(status = 200, answer: unknown = {}) {
    const fetch = vi.fn(async () => new Response(status === 204 ? null : JSON.stringify(answer), { status }))
    vi.stubGlobal('fetch', fetch)
    return fetch
  }

  it('fills {params} encoded, adds the defined query fields, and sends method and body', async () => {
    const fetch = stubFetch(200, { id: 'x' })
    const answer = await request('PUT /platform/projects/{ref}/content/folders/{id}', { params: { ref: 'a/b', id: 'c d' }, body: { name: 'n' } })
    expect(answer).toEqual({ id: 'x' })
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/platform/projects/a%2Fb/content/folders/c%20d')
    expect(init.method).toBe('PUT')
    expect(init.body).toBe('{"name":"n"}')

    await request('GET /platform/projects', { query: { organization_slug: undefined } })
    expect((fetch.mock.calls[1] as unknown as [string])[0]).toBe('/platform/projects')
    await request('DELETE /platform/pg-meta/{ref}/extensions', { params: { ref: 'r' }, query: { id: 'pg trgm', cascade: true } })
    expect((fetch.mock.calls[2] as unknown as [string])[0]).toBe('/platform/pg-meta/r/extensions?id=pg+trgm&cascade=true')
  })

  it('keeps the slashes of a path tail and encodes each segment', () => {
    expect(routeUrl('POST /platform/storage/{ref}/objects/sign/{bucket}/{...path}', { params: { ref: 'r', bucket: 'my bucket', path: 'a b/c#d.txt' } })).toBe(
      '/platform/storage/r/objects/sign/my%20bucket/a%20b/c%23d.txt',
    )
  })

  it('throws the server message as api() does', async () => {
    stubFetch(404, { message: 'Project not found' })
    await expect(request('GET /platform/projects/{ref}', { params: { ref: 'r' } })).rejects.toMatchObject({ status: 404, message: 'Project not found' })
  })
})
