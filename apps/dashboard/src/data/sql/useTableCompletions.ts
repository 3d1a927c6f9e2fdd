import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'

export const sqlCompletionKeys = {
  tables: (ref: string) => ['sql', ref, 'completion-tables'] as const,
}

/** GET /platform/pg-meta/{ref}/tables?include_columns=true: schemas, tables and columns for editor completion. */
export const getCompletionTables = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/pg-meta/{ref}/tables', { params: { ref }, query: { include_columns: true }, signal })

export const tableCompletionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: sqlCompletionKeys.tables(ref ?? ''),
    queryFn: ref ? ({ signal }) => getCompletionTables(ref, signal) : skipToken,
    staleTime: 30_000,
  })

export function useTableCompletions(ref: string | undefined) {
  return useQuery(tableCompletionsQuery(ref))
}
