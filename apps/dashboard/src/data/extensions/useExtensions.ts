import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { extensionKeys } from './keys'

export const getExtensions = (ref: string, signal?: AbortSignal) => request('GET /platform/pg-meta/{ref}/extensions', { params: { ref }, signal })

/** Every extension the project's Postgres ships, enabled or not, with the platform's verdict on each. */
export const extensionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: extensionKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getExtensions(ref, signal) : skipToken,
  })

export function useExtensions(ref: string | undefined) {
  return useQuery(extensionsQuery(ref))
}
