import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ApiRole } from '@stratum/contracts'
import { request } from '../request'
import { apiDocsKeys } from './keys'

export const getOpenApiDocument = (ref: string, role: ApiRole, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/api/rest', { params: { ref }, query: { role }, signal })

export const openApiDocumentQuery = (ref: string | undefined, role: ApiRole = 'anon') =>
  queryOptions({
    queryKey: apiDocsKeys.openApi(ref ?? '', role),
    queryFn: ref ? ({ signal }) => getOpenApiDocument(ref, role, signal) : skipToken,
  })

/** The project's REST API document (PostgREST's OpenAPI 2.0) as one API role sees it. */
export function useOpenApiDocument(ref: string | undefined, role: ApiRole = 'anon', enabled = true) {
  return useQuery({ ...openApiDocumentQuery(ref, role), enabled })
}
