import { parseFilter, type GridFilter } from '@stratum/sql'

/**
 * A change of a grid's filters, made to the filters as last written to the URL rather than those of the last render:
 * a second filter added (or removed) before the router re-rendered the first change kept it (it was dropped).
 */
export type GridFiltersChange = (latest: GridFilter[]) => GridFilter[]

const same = (a: GridFilter | undefined, b: GridFilter) => a !== undefined && a.column === b.column && a.operator === b.operator && a.value === b.value

/** The filters without the one shown at `index`; unchanged when it is no longer there (a second Remove on a stale render). */
export function withoutFilterAt(filters: readonly GridFilter[], index: number, shown: GridFilter): GridFilter[] {
  return same(filters[index], shown) ? filters.filter((_, i) => i !== index) : [...filters]
}

/** The filters written in the URL's `filter` values (one per value); a value that does not parse is left out. */
export function parseFilters(texts: readonly string[]): GridFilter[] {
  return texts.map(parseFilter).filter((filter): filter is GridFilter => filter !== undefined)
}
