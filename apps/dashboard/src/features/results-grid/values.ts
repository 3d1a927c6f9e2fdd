import type { FilterOperator, GridFilter, GridSort } from '@stratum/sql'

/** How a cell value reads in the grid, the CSV and the copy buffer. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value) ?? ''
  return String(value)
}

function asNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

function likeToRegExp(pattern: string, flags: string): RegExp {
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.')
  return new RegExp(`^${source}$`, `s${flags}`)
}

function compareText(a: string, b: string): number {
  const x = asNumber(a)
  const y = asNumber(b)
  if (x !== undefined && y !== undefined) return x - y
  return a.localeCompare(b)
}

/** Whether a value passes one filter, with the ten operators' usual meanings. */
export function matchesFilter(value: unknown, operator: FilterOperator, wanted: string): boolean {
  if (operator === 'is') {
    const word = wanted.trim().toLowerCase()
    if (word === 'null') return value === null || value === undefined
    if (word === 'not null') return value !== null && value !== undefined
    if (word === 'true' || word === 'false') return value === (word === 'true')
    return false
  }
  if (value === null || value === undefined) return false
  const text = displayValue(value)
  switch (operator) {
    case '=':
      return compareText(text, wanted) === 0
    case '<>':
      return compareText(text, wanted) !== 0
    case '>':
      return compareText(text, wanted) > 0
    case '<':
      return compareText(text, wanted) < 0
    case '>=':
      return compareText(text, wanted) >= 0
    case '<=':
      return compareText(text, wanted) <= 0
    case '~~':
      return likeToRegExp(wanted, '').test(text)
    case '~~*':
      return likeToRegExp(wanted, 'i').test(text)
    case 'in':
      return wanted.replace(/^\(|\)$/g, '').split(',').some((part) => compareText(text, part.trim()) === 0)
  }
}

export type Row = Record<string, unknown>

/** Filtered then sorted rows (nulls last), without changing the input. */
export function applyGridState(rows: readonly Row[], sort: GridSort | undefined, filters: readonly GridFilter[]): Row[] {
  let out = filters.length ? rows.filter((row) => filters.every((f) => matchesFilter(row[f.column], f.operator, f.value))) : [...rows]
  if (sort) {
    const { column, ascending } = sort
    out = out.sort((a, b) => {
      const x = a[column]
      const y = b[column]
      if (x === y) return 0
      if (x === null || x === undefined) return 1
      if (y === null || y === undefined) return -1
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : compareText(displayValue(x), displayValue(y))
      return ascending ? order : -order
    })
  }
  return out
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = displayValue(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  return [columns.map(csvField).join(','), ...rows.map((row) => columns.map((c) => csvField(row[c])).join(','))].join('\r\n')
}

function markdownCell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return displayValue(value).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>')
}

/** A GitHub-flavoured Markdown table: a header row, the separator, one line per row. */
export function toMarkdown(columns: readonly string[], rows: readonly Row[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [
    line(columns.map(markdownCell)),
    line(columns.map(() => '---')),
    ...rows.map((row) => line(columns.map((c) => markdownCell(row[c])))),
  ].join('\n') + '\n'
}

export function toJson(rows: readonly Row[]): string {
  return JSON.stringify(rows, null, 2)
}
