import { buildPageQuery, type GridFilter } from '@stratum/sql'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { tableEditorKeys } from './keys'
import { runEditorSql } from './runEditorSql'

/** Rows of a referenced table for the foreign key picker: the first 20 whose key column matches the search. */
export function referencedRowsSql(schema: string, table: string, column: string, search: string): string {
  const filters: GridFilter[] = search ? [{ column, operator: '~~*', value: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` }] : []
  return buildPageQuery({ relation: { schema, name: table }, columns: [], primaryKey: [column], hasCtid: true, filters, pageSize: 20, cursor: { kind: 'first' } }).sql
}

export const referencedRowsQuery = (ref: string | undefined, sql: string) =>
  queryOptions({
    queryKey: tableEditorKeys.referenced(ref ?? '', sql),
    queryFn: ref ? async ({ signal }) => (await runEditorSql(ref, sql, { write: false, signal }))[0]?.rows ?? [] : skipToken,
  })

export function useReferencedRows(ref: string | undefined, sql: string) {
  return useQuery(referencedRowsQuery(ref, sql))
}
