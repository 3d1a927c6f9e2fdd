import { displayValue, toCsv, type Row } from './values'

/** A cell of the grid: the row's index among the rows shown, the column's among the result's columns. */
export interface CellPosition {
  row: number
  column: number
}

/** A rectangle of cells, bounds included. */
export interface CellRange {
  top: number
  bottom: number
  left: number
  right: number
}

/** The rectangle between where a selection started and where it is now, kept inside the grid. */
export function rangeBetween(anchor: CellPosition, focus: CellPosition, rowCount: number, columnCount: number): CellRange {
  const clampRow = (n: number) => Math.max(0, Math.min(rowCount - 1, n))
  const clampColumn = (n: number) => Math.max(0, Math.min(columnCount - 1, n))
  return {
    top: clampRow(Math.min(anchor.row, focus.row)),
    bottom: clampRow(Math.max(anchor.row, focus.row)),
    left: clampColumn(Math.min(anchor.column, focus.column)),
    right: clampColumn(Math.max(anchor.column, focus.column)),
  }
}

export function rangeSize(range: CellRange): { rows: number; columns: number; cells: number } {
  const rows = range.bottom - range.top + 1
  const columns = range.right - range.left + 1
  return { rows, columns, cells: rows * columns }
}

export function inRange(range: CellRange | null, row: number, column: number): boolean {
  return range !== null && row >= range.top && row <= range.bottom && column >= range.left && column <= range.right
}

/** The selected columns' names and the selected rows, limited to those columns. */
export function rangeData(columns: readonly string[], rows: readonly Row[], range: CellRange): { columns: string[]; rows: Row[] } {
  const picked = columns.slice(range.left, range.right + 1)
  return {
    columns: picked,
    rows: rows.slice(range.top, range.bottom + 1).map((row) => Object.fromEntries(picked.map((name) => [name, row[name]]))),
  }
}

/**
 * A TSV field as spreadsheets read it: values as the grid shows them (NULL included, JSON as is).
 * Only one holding a tab or a line break, or starting with a double quote, is quoted, its quotes doubled.
 */
function tsvField(value: unknown): string {
  const text = displayValue(value)
  return /[\t\r\n]/.test(text) || text.startsWith('"') ? `"${text.replace(/"/g, '""')}"` : text
}

/** The range as tab-separated values, one line per row (what Ctrl+C copies), optionally with the column names first. */
export function rangeToTsv(columns: readonly string[], rows: readonly Row[], range: CellRange, { header = false } = {}): string {
  const data = rangeData(columns, rows, range)
  const lines = data.rows.map((row) => data.columns.map((name) => tsvField(row[name])).join('\t'))
  if (header) lines.unshift(data.columns.map(tsvField).join('\t'))
  return lines.join('\n')
}

/** The range as CSV with a header line (empty for NULL, as the grid's CSV download). */
export function rangeToCsv(columns: readonly string[], rows: readonly Row[], range: CellRange): string {
  const data = rangeData(columns, rows, range)
  return toCsv(data.columns, data.rows)
}

/** The range as a JSON array of objects, with the values' own types (numbers, booleans, null, json). */
export function rangeToJson(columns: readonly string[], rows: readonly Row[], range: CellRange): string {
  return JSON.stringify(rangeData(columns, rows, range).rows, null, 2)
}
