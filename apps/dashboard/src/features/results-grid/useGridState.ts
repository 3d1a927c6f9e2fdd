import { formatFilter, formatSort, parseSort, type GridSort } from '@stratum/sql'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import { parseFilters, type GridFiltersChange } from '../../lib/gridFilterChanges'

/** Local storage of grid state is debounced (the project shell spec's limits). */
export const GRID_STATE_DEBOUNCE_MS = 500

const storageKey = (key: string) => `stratum.results-grid.${key}`

interface StoredState {
  sort?: string
  filter?: string[]
}

function readStored(key: string): StoredState {
  try {
    return JSON.parse(window.localStorage.getItem(storageKey(key)) ?? '{}') as StoredState
  } catch {
    return {}
  }
}

/**
 * Sort and filters of a results grid, kept in the URL (`?sort=column:asc&filter=column:eq:value`)
 * and, debounced, in local storage under `key`, which restores them when the URL has none.
 */
export function useGridState(key: string) {
  const [params, setParams] = useLatestSearchParams()
  const restored = useRef<string | null>(null)

  // Restore once per key when the URL carries no state of its own.
  useEffect(() => {
    if (restored.current === key) return
    restored.current = key
    if (params.has('sort') || params.has('filter')) return
    const stored = readStored(key)
    if (!stored.sort && !stored.filter?.length) return
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (stored.sort) next.set('sort', stored.sort)
        stored.filter?.forEach((f) => next.append('filter', f))
        return next
      },
      { replace: true },
    )
  }, [key, params, setParams])

  const sortText = params.get('sort') ?? undefined
  const filterTexts = params.getAll('filter')
  const filterKey = filterTexts.join('\n')

  // Debounced copy into local storage.
  useEffect(() => {
    if (restored.current !== key) return
    const timer = window.setTimeout(() => {
      try {
        const value: StoredState = { sort: sortText, filter: filterKey ? filterKey.split('\n') : [] }
        if (!value.sort && !value.filter?.length) window.localStorage.removeItem(storageKey(key))
        else window.localStorage.setItem(storageKey(key), JSON.stringify(value))
      } catch {
        // Storage full or disabled: the URL still holds the state.
      }
    }, GRID_STATE_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [key, sortText, filterKey])

  const sort = useMemo(() => (sortText ? parseSort(sortText) : undefined), [sortText])
  const filters = useMemo(
    () => parseFilters(filterKey ? filterKey.split('\n') : []),
    [filterKey],
  )

  const setSort = useCallback(
    (next: GridSort | undefined) =>
      setParams(
        (current) => {
          const out = new URLSearchParams(current)
          if (next) out.set('sort', formatSort(next))
          else out.delete('sort')
          return out
        },
        { replace: true },
      ),
    [setParams],
  )

  const setFilters = useCallback(
    (change: GridFiltersChange) =>
      setParams(
        (current) => {
          // From the filters as last written (see GridFiltersChange).
          const next = change(parseFilters(current.getAll('filter')))
          const out = new URLSearchParams(current)
          out.delete('filter')
          next.forEach((f) => out.append('filter', formatFilter(f)))
          return out
        },
        { replace: true },
      ),
    [setParams],
  )

  return { sort, filters, setSort, setFilters }
}
