/**
 * Results-grid state as kept in the URL or local storage (the project shell spec's results grid): a sort is
 * `column:asc|desc` and a filter `column:operator-abbrev:value`, with the ten filter operators
 * the spec lists. Column names may themselves hold colons, and values often do (times, URLs), so
 * parsing anchors on the direction or the operator abbreviation rather than on the first colon.
 */

export const FILTER_OPERATORS = [
  { operator: '=', abbrev: 'eq' },
  { operator: '<>', abbrev: 'neq' },
  { operator: '>', abbrev: 'gt' },
  { operator: '<', abbrev: 'lt' },
  { operator: '>=', abbrev: 'gte' },
  { operator: '<=', abbrev: 'lte' },
  { operator: '~~', abbrev: 'like' },
  { operator: '~~*', abbrev: 'ilike' },
  { operator: 'in', abbrev: 'in' },
  { operator: 'is', abbrev: 'is' },
] as const

export type FilterOperator = (typeof FILTER_OPERATORS)[number]['operator']
export type FilterOperatorAbbrev = (typeof FILTER_OPERATORS)[number]['abbrev']

export interface GridSort {
  column: string
  ascending: boolean
}

export interface GridFilter {
  column: string
  operator: FilterOperator
  value: string
}

export function formatSort(sort: GridSort): string {
  return `${sort.column}:${sort.ascending ? 'asc' : 'desc'}`
}

/** Parses `column:asc` or `column:desc`; anything else gives undefined. */
export function parseSort(text: string): GridSort | undefined {
  const colon = text.lastIndexOf(':')
  if (colon <= 0) return undefined
  const direction = text.slice(colon + 1)
  if (direction !== 'asc' && direction !== 'desc') return undefined
  return { column: text.slice(0, colon), ascending: direction === 'asc' }
}

export function filterOperatorAbbrev(operator: FilterOperator): FilterOperatorAbbrev {
  return FILTER_OPERATORS.find((entry) => entry.operator === operator)!.abbrev
}

export function filterOperatorFromAbbrev(abbrev: string): FilterOperator | undefined {
  return FILTER_OPERATORS.find((entry) => entry.abbrev === abbrev)?.operator
}

export function formatFilter(filter: GridFilter): string {
  return `${filter.column}:${filterOperatorAbbrev(filter.operator)}:${filter.value}`
}

/**
 * Parses `column:abbrev:value`. The column is everything before the first `:abbrev:` with a
 * known abbreviation, the value everything after it (it may be empty or hold colons).
 */
export function parseFilter(text: string): GridFilter | undefined {
  for (let colon = text.indexOf(':'); colon > 0; colon = text.indexOf(':', colon + 1)) {
    const second = text.indexOf(':', colon + 1)
    if (second === -1) return undefined
    const operator = filterOperatorFromAbbrev(text.slice(colon + 1, second))
    if (operator) return { column: text.slice(0, colon), operator, value: text.slice(second + 1) }
  }
  return undefined
}
