import type { PgMetaTable } from '@stratum/contracts'
import { useQuery } from '@tanstack/react-query'
import { api } from '../api'

export const sqlCompletionKeys = {
  tables: (ref: string) => ['sql', ref, 'completion-tables'] as const,
}

/** GET /platform/pg-meta/{ref}/tables?include_columns=true: schemas, tables and columns for editor completion. */
export const getCompletionTables = (ref: string, signal?: AbortSignal) =>
  api<PgMetaTable[]>(`/platform/pg-meta/${encodeURIComponent(ref)}/tables?include_columns=true`, { signal })

export function useTableCompletions(ref: string | undefined) {
  return useQuery({
    queryKey: sqlCompletionKeys.tables(ref ?? ''),
    queryFn: ({ signal }) => getCompletionTables(ref ?? '', signal),
    enabled: Boolean(ref),
    staleTime: 30_000,
  })
}
