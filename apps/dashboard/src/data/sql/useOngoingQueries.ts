import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { sqlKeys } from './keys'

/** A row of GET .../query/ongoing (contracts OngoingQuery). */
export interface OngoingQueryRow {
  pid: number
  query: string
  query_start: string | null
  state: string | null
  usename: string | null
  application_name: string
}

export const getOngoingQueries = (ref: string, signal?: AbortSignal) =>
  api<OngoingQueryRow[]>(`/platform/pg-meta/${encodeURIComponent(ref)}/query/ongoing`, { signal })

export const ongoingQueriesQuery = (ref: string) =>
  queryOptions({
    queryKey: sqlKeys.ongoing(ref),
    queryFn: ref ? ({ signal }) => getOngoingQueries(ref, signal) : skipToken,
  })

/** Polled every 5 s while `enabled` (the dialog is open). */
export function useOngoingQueries(ref: string, enabled: boolean) {
  return useQuery({ ...ongoingQueriesQuery(ref), enabled, refetchInterval: enabled ? 5000 : false })
}
