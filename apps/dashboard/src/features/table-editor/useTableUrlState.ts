import { formatFilter, formatSort, parseSort, type GridSort } from '@stratum/sql'
import { useCallback, useMemo } from 'react'
import { parseFilters, type GridFiltersChange } from '../../lib/gridFilterChanges'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'

/**
 * The table editor's grid state in the URL (project-shell spec): `sort=column:asc|desc` and one
 * `filter=column:operator-abbrev:value` per filter, so a filtered, sorted view can be shared or reloaded.
 * `schema` names the schema the list shows.
 */
export function useTableUrlState() {
  const [params, setParams] = useLatestSearchParams()
  const sortText = params.get('sort')
  const filterTexts = params.getAll('filter').join('\n')
  const sort = useMemo(() => (sortText ? parseSort(sortText) : undefined), [sortText])
  const filters = useMemo(
    () => parseFilters(filterTexts ? filterTexts.split('\n') : []),
    [filterTexts],
  )

  const setSort = useCallback(
    (next: GridSort | undefined) =>
      setParams((current) => {
        if (next) current.set('sort', formatSort(next))
        else current.delete('sort')
        return current
      }),
    [setParams],
  )
  const setFilters = useCallback(
    (change: GridFiltersChange) =>
      setParams((current) => {
        // From the filters as last written (see GridFiltersChange).
        const next = change(parseFilters(current.getAll('filter')))
        current.delete('filter')
        for (const filter of next) current.append('filter', formatFilter(filter))
        return current
      }),
    [setParams],
  )
  const setSchema = useCallback(
    (schema: string) =>
      setParams((current) => {
        current.set('schema', schema)
        return current
      }),
    [setParams],
  )
  return { schema: params.get('schema') ?? undefined, sort, filters, setSort, setFilters, setSchema }
}
