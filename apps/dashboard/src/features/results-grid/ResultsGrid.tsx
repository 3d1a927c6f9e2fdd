import { columnWidth, FILTER_OPERATORS, type FilterOperator, type GridFilter } from '@stratum/sql'
import { Copy, Download, Filter, Maximize2, X } from 'lucide-react'
import { useMemo, useState, type ClipboardEvent, type FormEvent, type MouseEvent } from 'react'
import { DataGrid, type Column, type SortColumn } from 'react-data-grid'
import 'react-data-grid/lib/styles.css'
import { Button, IconButton } from '../../components/ui/Button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/DropdownMenu'
import { Select } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { useCopyToClipboard } from '../../components/ui/useCopyToClipboard'
import { downloadText } from '../../lib/download'
import { withoutFilterAt, type GridFiltersChange } from '../../lib/gridFilterChanges'
import { CellViewerDialog, type ViewedCell } from './CellViewerDialog'
import { inRange, rangeToCsv, rangeToJson, rangeToTsv } from './cellRange'
import { useCellRange } from './useCellRange'
import { useGridState } from './useGridState'
import { applyGridState, displayValue, toCsv, toJson, toMarkdown, type Row } from './values'
import './results-grid.css'

/** Rows measured for a column's width; the rest are virtualized away anyway. */
const WIDTH_SAMPLE = 50
export const ROW_HEIGHT = 30

interface ResultsGridProps {
  columns: readonly string[]
  rows: readonly Row[]
  /** Where sort and filters persist (local storage), e.g. `{ref}.{snippetId}`. */
  stateKey: string
  /** Base name of exported files. */
  fileName: string
  /** A click on a row (the Logs Explorer opens the line's full event); double-click still views the cell. */
  onRowClick?: (row: Row) => void
  /** Each column's type name, shown under its name in the header (the SQL editor's results). */
  columnTypes?: readonly string[]
  /** A first column with each row's number (1-based, in the order shown). */
  rowNumbers?: boolean
  /** The export of the whole result by the server (the SQL editor's), offered beside the loaded rows' downloads. */
  wholeResultExport?: WholeResultExport
  /** The line on viewing and selecting cells under the grid; left out where space is short (a report's widgets). */
  showHint?: boolean
}

export interface WholeResultExport {
  onExport(format: 'csv' | 'json'): void
  /** The format being started, while the server prepares it. */
  pending: 'csv' | 'json' | null
}

const ARROW_STEPS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }

/** The grid cell an event happened in: its row among the rows shown and its index among all the grid's columns. */
function cellAt(target: EventTarget | null): { row: number; gridColumn: number } | null {
  if (!(target instanceof Element)) return null
  const cell = target.closest('[role="gridcell"]')
  const row = cell?.closest('[role="row"]')
  if (!cell || !row) return null
  // aria-rowindex counts the header row as 1; aria-colindex counts from 1.
  const rowIndex = Number(row.getAttribute('aria-rowindex')) - 2
  const columnIndex = Number(cell.getAttribute('aria-colindex')) - 1
  return Number.isInteger(rowIndex) && rowIndex >= 0 && Number.isInteger(columnIndex) ? { row: rowIndex, gridColumn: columnIndex } : null
}

/** The row number column's key: not a result column (no result column can be named with a NUL). */
const ROW_NUMBER_KEY = '\u0000row'

function CellValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="grid-null">NULL</span>
  return <>{displayValue(value)}</>
}

function useStableList<T extends readonly string[] | undefined>(list: T): T {
  const key = list === undefined ? '' : JSON.stringify(list)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the list's content is its identity
  return useMemo(() => list, [key])
}

/** The results of one statement: virtualized rows, sort and filters, cell viewer, export. */
export function ResultsGrid({ columns: givenNames, rows, stateKey, fileName, onRowClick, columnTypes: givenTypes, rowNumbers, wholeResultExport, showHint = true }: ResultsGridProps) {
  // Callers build these lists on every render: kept by content, so the rows shown (and the
  // selected range, which belongs to them) stay the same until the result, sort or filters change.
  const names = useStableList(givenNames)
  const columnTypes = useStableList(givenTypes)
  const toast = useToast()
  const { copy } = useCopyToClipboard()
  const { sort, filters, setSort, setFilters } = useGridState(stateKey)
  const [viewed, setViewed] = useState<ViewedCell | null>(null)
  const [filterOpen, setFilterOpen] = useState(false)

  const known = useMemo(() => new Set(names), [names])
  const activeSort = sort && known.has(sort.column) ? sort : undefined
  const activeFilters = useMemo(() => filters.filter((f) => known.has(f.column)), [filters, known])
  const shown = useMemo(() => applyGridState(rows, activeSort, activeFilters), [rows, activeSort, activeFilters])
  const selection = useCellRange(shown, names.length)
  const { range } = selection
  const multiple = (selection.size?.cells ?? 0) > 1
  /** Grid column index of the first result column (after the row numbers). */
  const firstColumn = rowNumbers ? 1 : 0
  const rowIndex = useMemo(() => new Map(shown.map((row, index) => [row, index])), [shown])

  const baseColumns = useMemo<Column<Row>[]>(() => {
    const sample = rows.slice(0, WIDTH_SAMPLE)
    const result: Column<Row>[] = names.map((name, index) => {
      const type = columnTypes?.[index]
      return {
        key: name,
        name: type ? (
          <span className="grid-header" title={`${name} (${type})`}>
            <span className="grid-header-name">{name}</span> <span className="grid-header-type">{type}</span>
          </span>
        ) : (
          name
        ),
        width: columnWidth(type ? `${name} ${type}` : name, sample.map((row) => row[name])),
        resizable: true,
        sortable: true,
        renderCell: ({ row }) => <CellValue value={row[name]} />,
      }
    })
    if (!rowNumbers) return result
    const numberWidth = 16 + 8 * String(rows.length).length
    return [
      { key: ROW_NUMBER_KEY, name: '#', width: Math.max(40, numberWidth), frozen: true, resizable: false, sortable: false, cellClass: 'grid-row-number', renderCell: ({ rowIdx }) => rowIdx + 1 },
      ...result,
    ]
  }, [names, rows, columnTypes, rowNumbers])

  // The selected range is drawn through each cell's class (cells know their row, not its index).
  const columns = useMemo<Column<Row>[]>(() => {
    if (!range || !multiple) return baseColumns
    return baseColumns.map((column, index) => {
      const data = index - firstColumn
      const selected = (row: Row) => {
        const at = rowIndex.get(row)
        return at !== undefined && (data < 0 ? at >= range.top && at <= range.bottom : inRange(range, at, data))
      }
      const base = column.cellClass
      return { ...column, cellClass: (row: Row) => [typeof base === 'function' ? base(row) : base, selected(row) ? 'grid-cell-in-range' : null].filter(Boolean).join(' ') || undefined }
    })
  }, [baseColumns, range, multiple, firstColumn, rowIndex])

  const sortColumns: SortColumn[] = activeSort ? [{ columnKey: activeSort.column, direction: activeSort.ascending ? 'ASC' : 'DESC' }] : []

  const copyCell = async (value: unknown) => {
    if (await copy(displayValue(value))) toast.success('Copied cell value')
  }

  /** Copies the selected cells: as TSV (Ctrl+C, what spreadsheets paste), or in the format asked for. */
  const copyRange = async (kind: 'tsv' | 'tsv-header' | 'csv' | 'json') => {
    if (!range) return
    const text =
      kind === 'csv' ? rangeToCsv(names, shown, range) : kind === 'json' ? rangeToJson(names, shown, range) : rangeToTsv(names, shown, range, { header: kind === 'tsv-header' })
    if (await copy(text)) toast.success(`Copied ${selection.size!.cells.toLocaleString()} cells`)
  }

  const onCopyRange = (event: ClipboardEvent<HTMLDivElement>) => {
    if (!range || !multiple || event.defaultPrevented || !(event.target instanceof Element) || !event.target.closest('.rdg')) return
    // Written into the copy event itself: no clipboard permission needed, and the browser's own Ctrl+C.
    event.clipboardData.setData('text/plain', rangeToTsv(names, shown, range))
    event.preventDefault()
    toast.success(`Copied ${selection.size!.cells.toLocaleString()} cells`)
  }

  const onDragOver = (event: MouseEvent<HTMLDivElement>) => {
    if (!selection.isDragging()) return
    const cell = cellAt(event.target)
    if (cell && cell.gridColumn >= firstColumn) selection.extendTo({ row: cell.row, column: cell.gridColumn - firstColumn })
  }

  const exportAs = (kind: 'csv' | 'json' | 'md') => {
    if (kind === 'csv') downloadText(`${fileName}.csv`, toCsv(names, shown), 'text/csv;charset=utf-8')
    else if (kind === 'md') downloadText(`${fileName}.md`, toMarkdown(names, shown), 'text/markdown;charset=utf-8')
    else downloadText(`${fileName}.json`, toJson(shown), 'application/json')
  }

  return (
    <div className="results-grid" onMouseOver={onDragOver} onCopy={onCopyRange}>
      <div className="results-grid-toolbar">
        <span className="results-grid-count" aria-live="polite">
          {shown.length === rows.length ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` : `${shown.length} of ${rows.length} rows`}
          {multiple && selection.size ? ` · ${selection.size.rows.toLocaleString()} × ${selection.size.columns.toLocaleString()} cells selected` : ''}
        </span>
        <div className="results-grid-actions">
          {multiple ? (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button size="sm" variant="ghost" icon={<Copy size={14} aria-hidden="true" />}>
                  Copy cells
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuItem onSelect={() => void copyRange('tsv')}>Copy</DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void copyRange('tsv-header')}>Copy with column names</DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void copyRange('csv')}>Copy as CSV</DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void copyRange('json')}>Copy as JSON</DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          ) : null}
          <Button size="sm" variant="ghost" icon={<Filter size={14} aria-hidden="true" />} aria-expanded={filterOpen} onClick={() => setFilterOpen((open) => !open)}>
            Filter{activeFilters.length ? ` (${activeFilters.length})` : ''}
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button size="sm" variant="ghost" icon={<Download size={14} aria-hidden="true" />}>
                Export
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              {wholeResultExport ? (
                <>
                  <DropdownMenuLabel>All rows, streamed from the database</DropdownMenuLabel>
                  {(['csv', 'json'] as const).map((format) => (
                    <DropdownMenuItem
                      key={format}
                      disabled={wholeResultExport.pending !== null}
                      onSelect={() => wholeResultExport.onExport(format)}
                    >
                      {wholeResultExport.pending === format ? 'Preparing…' : `Export all rows as ${format.toUpperCase()}`}
                    </DropdownMenuItem>
                  ))}
                  <DropdownMenuSeparator />
                  <DropdownMenuLabel>{`The ${shown.length.toLocaleString()} ${shown.length === 1 ? 'row' : 'rows'} shown here`}</DropdownMenuLabel>
                </>
              ) : null}
              <DropdownMenuItem onSelect={() => exportAs('csv')}>Download CSV</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => exportAs('json')}>Download JSON</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => exportAs('md')}>Download Markdown</DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
      {filterOpen || activeFilters.length ? (
        <FilterBar columns={names} filters={activeFilters} open={filterOpen} onChange={(change) => setFilters((latest) => change(latest.filter((f) => known.has(f.column))))} />
      ) : null}
      <DataGrid
        className="results-grid-table"
        aria-label="Query results"
        columns={columns}
        rows={shown}
        rowHeight={ROW_HEIGHT}
        headerRowHeight={ROW_HEIGHT + 2}
        sortColumns={sortColumns}
        onSortColumnsChange={(next) => {
          const first = next[0]
          setSort(first ? { column: first.columnKey, ascending: first.direction === 'ASC' } : undefined)
        }}
        onCellMouseDown={({ rowIdx, column }, event) => {
          if (event.button !== 0) return
          const data = column.idx - firstColumn
          if (data < 0) {
            // The row number: the whole row; with shift, every row from the selection's first.
            const whole = { row: rowIdx, column: names.length - 1 }
            if (event.shiftKey && range) selection.extendTo(whole)
            else {
              selection.startAt({ row: rowIdx, column: 0 })
              selection.extendTo(whole)
            }
            return
          }
          if (event.shiftKey) selection.extendTo({ row: rowIdx, column: data })
          else selection.startAt({ row: rowIdx, column: data }, { drag: true })
        }}
        onActivePositionChange={({ rowIdx, column }) => {
          if (column && column.idx >= firstColumn && rowIdx >= 0) selection.activeMoved({ row: rowIdx, column: column.idx - firstColumn })
        }}
        onCellClick={onRowClick ? ({ row }) => onRowClick(row) : undefined}
        onCellDoubleClick={({ row, column }) => {
          if (column.key !== ROW_NUMBER_KEY) setViewed({ column: column.key, value: row[column.key] })
        }}
        onCellKeyDown={(args, event) => {
          if (args.mode !== 'ACTIVE') return
          const { row, column, rowIdx } = args
          if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
            event.preventGridDefault()
            event.preventDefault()
            selection.selectAll()
            return
          }
          const step = ARROW_STEPS[event.key]
          if (event.shiftKey && step && column && column.idx >= firstColumn && rowIdx >= 0) {
            // The far corner moves, and the grid's active cell with it (so the grid scrolls to it).
            event.preventGridDefault()
            event.preventDefault()
            const next = selection.stepFrom({ row: rowIdx, column: column.idx - firstColumn }, step[0], step[1])
            selection.extendTo(next, { row: rowIdx, column: column.idx - firstColumn })
            args.setActivePosition({ rowIdx: next.row, idx: next.column + firstColumn })
            return
          }
          if (!row || !column || column.key === ROW_NUMBER_KEY) return
          if (event.key === 'Enter') {
            event.preventGridDefault()
            setViewed({ column: column.key, value: row[column.key] })
          }
        }}
        onCellCopy={({ row, column }, event) => {
          // A range is copied by the container (onCopyRange), even once its active cell scrolled away.
          if (multiple) return
          event.preventDefault()
          if (column.key === ROW_NUMBER_KEY) return
          void copyCell(row[column.key])
        }}
        renderers={{ noRowsFallback: <div className="results-grid-empty">No rows match the filters</div> }}
      />
      {showHint ? (
        <div className="results-grid-hint">
          <Maximize2 size={12} aria-hidden="true" /> Double-click or press Enter on a cell to view it. Drag, or Shift+click or Shift+arrows, to select cells;
          Ctrl+C copies them.
        </div>
      ) : null}
      <CellViewerDialog cell={viewed} onClose={() => setViewed(null)} />
    </div>
  )
}

function FilterBar({ columns, filters, open, onChange }: { columns: readonly string[]; filters: GridFilter[]; open: boolean; onChange: (change: GridFiltersChange) => void }) {
  const [column, setColumn] = useState(columns[0] ?? '')
  const [operator, setOperator] = useState<FilterOperator>('=')
  const [value, setValue] = useState('')
  const add = (event: FormEvent) => {
    event.preventDefault()
    if (!column) return
    onChange((latest) => [...latest, { column, operator, value }])
    setValue('')
  }
  return (
    <div className="results-grid-filters">
      {filters.map((f, index) => (
        <span key={`${f.column}-${index}`} className="filter-chip">
          <code>
            {f.column} {f.operator} {f.value}
          </code>
          <IconButton size="sm" label={`Remove filter on ${f.column}`} icon={<X size={12} aria-hidden="true" />} onClick={() => onChange((latest) => withoutFilterAt(latest, index, f))} />
        </span>
      ))}
      {open ? (
        <form className="filter-form" onSubmit={add}>
          <Select aria-label="Filter column" value={column} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
          <Select aria-label="Filter operator" value={operator} onChange={(e) => setOperator(e.target.value as FilterOperator)}>
            {FILTER_OPERATORS.map(({ operator: op, abbrev }) => (
              <option key={abbrev} value={op}>
                {op} ({abbrev})
              </option>
            ))}
          </Select>
          <input className="input select-compact filter-value" aria-label="Filter value" value={value} onChange={(e) => setValue(e.target.value)} placeholder="Value" />
          <Button size="sm" type="submit">
            Add filter
          </Button>
        </form>
      ) : null}
    </div>
  )
}
