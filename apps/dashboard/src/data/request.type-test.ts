import { request, routeUrl } from './request'

/**
 * Compile-time proof that the route map binds the dashboard's calls: each @ts-expect-error below must be an error
 * for `tsc -p apps/dashboard` to pass. Never called, never bundled (nothing imports it).
 */
export async function routeMapTypeChecks(ref: string, signal: AbortSignal) {
  // The answer's type comes from the route: a Project, whose ref is a string.
  const project = await request('GET /platform/projects/{ref}', { params: { ref }, signal })
  const projectRef: string = project.ref
  // @ts-expect-error -- and not a number
  const wrongAnswer: number = project.ref

  // @ts-expect-error -- a path the server does not have
  await request('GET /platform/project/{ref}', { params: { ref } })
  // @ts-expect-error -- a method the route does not take
  await request('PATCH /platform/projects/{ref}/status', { params: { ref } })
  // @ts-expect-error -- a {param} left out
  await request('GET /platform/organizations/{slug}/members', { params: {} })
  // @ts-expect-error -- no options at all for a path with params
  await request('GET /platform/projects/{ref}')
  // @ts-expect-error -- a param of another name
  await request('GET /platform/projects/{ref}', { params: { id: ref } })

  // @ts-expect-error -- a body of the wrong shape
  await request('POST /platform/pg-meta/{ref}/query/cancel', { params: { ref }, body: { process: 1 } })
  // @ts-expect-error -- a body left out where the route needs one
  await request('POST /platform/projects/{ref}/resize', { params: { ref } })
  // @ts-expect-error -- a body where the route takes none
  await request('POST /platform/projects/{ref}/pause', { params: { ref }, body: { now: true } })
  // @ts-expect-error -- a query field the server's schema lacks
  await request('GET /platform/projects/{ref}/usage', { params: { ref }, query: { period: '1h' } })

  // Routes without params take no options; a path tail is one param.
  const profile = await request('GET /platform/profile')
  const url: string = routeUrl('POST /platform/storage/{ref}/objects/{bucket}/{...path}', { params: { ref, bucket: 'b', path: 'a/b.txt' } })
  return { projectRef, wrongAnswer, profile, url }
}
