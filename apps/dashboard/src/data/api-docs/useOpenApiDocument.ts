import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ApiRole, OpenApiDocument } from '@stratum/contracts'
import { api } from '../api'
import { apiDocsKeys } from './keys'

export const getOpenApiDocument = (ref: string, role: ApiRole, signal?: AbortSignal) =>
  api<OpenApiDocument>(`/platform/projects/${encodeURIComponent(ref)}/api/rest?role=${role}`, { signal })

export const openApiDocumentQuery = (ref: string | undefined, role: ApiRole = 'anon') =>
  queryOptions({
    queryKey: apiDocsKeys.openApi(ref ?? '', role),
    queryFn: ref ? ({ signal }) => getOpenApiDocument(ref, role, signal) : skipToken,
  })

/** The project's REST API document (PostgREST's OpenAPI 2.0) as one API role sees it. */
export function useOpenApiDocument(ref: string | undefined, role: ApiRole = 'anon', enabled = true) {
  return useQuery({ ...openApiDocumentQuery(ref, role), enabled })
}
