import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { tableEditorKeys } from './keys'
import { runEditorSql } from './runEditorSql'

export interface RowsPage {
  rows: Array<Record<string, string | null>>
  /** Rows matching the filters, counted up to the cap (a count above it means "more than the cap"). */
  count: number
}

/**
 * One page of a table's rows and the capped count, in one request (two statements): the page SQL and
 * the count SQL come from packages/sql (buildPageQuery, buildCappedCount).
 */
export const rowsPageQuery = (ref: string | undefined, relationId: number, pageSql: string | undefined, countSql: string, reversed: boolean) =>
  queryOptions({
    queryKey: [...tableEditorKeys.rows(ref ?? '', relationId, pageSql ?? ''), countSql, reversed],
    queryFn:
      ref && pageSql
        ? async ({ signal }): Promise<RowsPage> => {
            const [page, count] = await runEditorSql(ref, `${pageSql};\n${countSql}`, { write: false, signal })
            const rows = (page?.rows ?? []) as RowsPage['rows']
            return { rows: reversed ? [...rows].reverse() : rows, count: Number(count?.rows[0]?.count ?? 0) }
          }
        : skipToken,
    placeholderData: keepPreviousData,
    retry: false,
  })

export function useRowsPage(ref: string | undefined, relationId: number, pageSql: string | undefined, countSql: string, reversed: boolean) {
  return useQuery(rowsPageQuery(ref, relationId, pageSql, countSql, reversed))
}
