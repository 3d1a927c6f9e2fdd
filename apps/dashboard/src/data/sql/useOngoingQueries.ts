import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request, type RouteResponse } from '../request'
import { sqlKeys } from './keys'

/** A row of GET .../query/ongoing (contracts OngoingQuery). */
export type OngoingQueryRow = RouteResponse<'GET /platform/pg-meta/{ref}/query/ongoing'>[number]

export const getOngoingQueries = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/pg-meta/{ref}/query/ongoing', { params: { ref }, signal })

export const ongoingQueriesQuery = (ref: string) =>
  queryOptions({
    queryKey: sqlKeys.ongoing(ref),
    queryFn: ref ? ({ signal }) => getOngoingQueries(ref, signal) : skipToken,
  })

/** Polled every 5 s while `enabled` (the dialog is open). */
export function useOngoingQueries(ref: string, enabled: boolean) {
  return useQuery({ ...ongoingQueriesQuery(ref), enabled, refetchInterval: enabled ? 5000 : false })
}
