import { ApiError } from '../api'
import { routeUrl, type RouteOptions, type RouteResponse } from '../request'

type Route = 'POST /platform/projects/{ref}/content'

/**
 * POST /platform/projects/{ref}/content: inserts snippets and reports alike. It needs the header
 * Version: 2, which the generic api() helper does not send.
 */
export async function postContent(ref: string, body: RouteOptions<Route>['body']): Promise<RouteResponse<Route>> {
  let response: Response
  try {
    response = await fetch(routeUrl('POST /platform/projects/{ref}/content', { params: { ref } }), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Version: '2' },
      body: JSON.stringify(body),
    })
  } catch {
    throw new ApiError('Cannot reach the Stratum server. Check your connection and try again.', 0)
  }
  const payload = (await response.json().catch(() => undefined)) as { message?: string } | undefined
  if (!response.ok) throw new ApiError(payload?.message ?? `Request failed with status ${response.status}`, response.status)
  return payload as RouteResponse<Route>
}
