import { api } from '../api'
import { routeUrl, type RouteOptions, type RouteResponse } from '../request'

type Route = 'POST /platform/projects/{ref}/content'

/** POST /platform/projects/{ref}/content: inserts snippets and reports alike. It needs the header Version: 2. */
export async function postContent(ref: string, body: RouteOptions<Route>['body']): Promise<RouteResponse<Route>> {
  return api<RouteResponse<Route>>(routeUrl('POST /platform/projects/{ref}/content', { params: { ref } }), { method: 'POST', body, headers: { Version: '2' } })
}
