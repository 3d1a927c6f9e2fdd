import { columnWidth, FILTER_OPERATORS, type FilterOperator, type GridFilter } from '@stratum/sql'
import { Download, Filter, Maximize2, X } from 'lucide-react'
import { useMemo, useState, type FormEvent } from 'react'
import { DataGrid, type Column, type SortColumn } from 'react-data-grid'
import 'react-data-grid/lib/styles.css'
import { Button, IconButton } from '../../components/ui/Button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/DropdownMenu'
import { Select } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { useCopyToClipboard } from '../../components/ui/useCopyToClipboard'
import { downloadText } from '../../lib/download'
import { CellViewerDialog, type ViewedCell } from './CellViewerDialog'
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
}

/** The row number column's key: not a result column (no result column can be named with a NUL). */
const ROW_NUMBER_KEY = '\u0000row'

function CellValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="grid-null">NULL</span>
  return <>{displayValue(value)}</>
}

/** The results of one statement: virtualized rows, sort and filters, cell viewer, export. */
export function ResultsGrid({ columns: names, rows, stateKey, fileName, onRowClick, columnTypes, rowNumbers }: ResultsGridProps) {
  const toast = useToast()
  const { copy } = useCopyToClipboard()
  const { sort, filters, setSort, setFilters } = useGridState(stateKey)
  const [viewed, setViewed] = useState<ViewedCell | null>(null)
  const [filterOpen, setFilterOpen] = useState(false)

  const known = useMemo(() => new Set(names), [names])
  const activeSort = sort && known.has(sort.column) ? sort : undefined
  const activeFilters = useMemo(() => filters.filter((f) => known.has(f.column)), [filters, known])
  const shown = useMemo(() => applyGridState(rows, activeSort, activeFilters), [rows, activeSort, activeFilters])

  const columns = useMemo<Column<Row>[]>(() => {
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

  const sortColumns: SortColumn[] = activeSort ? [{ columnKey: activeSort.column, direction: activeSort.ascending ? 'ASC' : 'DESC' }] : []

  const copyCell = async (value: unknown) => {
    if (await copy(displayValue(value))) toast.success('Copied cell value')
  }

  const exportAs = (kind: 'csv' | 'json' | 'md') => {
    if (kind === 'csv') downloadText(`${fileName}.csv`, toCsv(names, shown), 'text/csv;charset=utf-8')
    else if (kind === 'md') downloadText(`${fileName}.md`, toMarkdown(names, shown), 'text/markdown;charset=utf-8')
    else downloadText(`${fileName}.json`, toJson(shown), 'application/json')
  }

  return (
    <div className="results-grid">
      <div className="results-grid-toolbar">
        <span className="results-grid-count" aria-live="polite">
          {shown.length === rows.length ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` : `${shown.length} of ${rows.length} rows`}
        </span>
        <div className="results-grid-actions">
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
              <DropdownMenuItem onSelect={() => exportAs('csv')}>Download CSV</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => exportAs('json')}>Download JSON</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => exportAs('md')}>Download Markdown</DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
      {filterOpen || activeFilters.length ? (
        <FilterBar columns={names} filters={activeFilters} open={filterOpen} onChange={setFilters} />
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
        onCellClick={onRowClick ? ({ row }) => onRowClick(row) : undefined}
        onCellDoubleClick={({ row, column }) => {
          if (column.key !== ROW_NUMBER_KEY) setViewed({ column: column.key, value: row[column.key] })
        }}
        onCellKeyDown={({ mode, row, column }, event) => {
          if (mode !== 'ACTIVE' || !row || !column || column.key === ROW_NUMBER_KEY) return
          if (event.key === 'Enter') {
            event.preventGridDefault()
            setViewed({ column: column.key, value: row[column.key] })
          }
        }}
        onCellCopy={({ row, column }, event) => {
          event.preventDefault()
          if (column.key === ROW_NUMBER_KEY) return
          void copyCell(row[column.key])
        }}
        renderers={{ noRowsFallback: <div className="results-grid-empty">No rows match the filters</div> }}
      />
      <div className="results-grid-hint">
        <Maximize2 size={12} aria-hidden="true" /> Double-click or press Enter on a cell to view it; Ctrl+C copies it.
      </div>
      <CellViewerDialog cell={viewed} onClose={() => setViewed(null)} />
    </div>
  )
}

function FilterBar({ columns, filters, open, onChange }: { columns: readonly string[]; filters: GridFilter[]; open: boolean; onChange: (next: GridFilter[]) => void }) {
  const [column, setColumn] = useState(columns[0] ?? '')
  const [operator, setOperator] = useState<FilterOperator>('=')
  const [value, setValue] = useState('')
  const add = (event: FormEvent) => {
    event.preventDefault()
    if (!column) return
    onChange([...filters, { column, operator, value }])
    setValue('')
  }
  return (
    <div className="results-grid-filters">
      {filters.map((f, index) => (
        <span key={`${f.column}-${index}`} className="filter-chip">
          <code>
            {f.column} {f.operator} {f.value}
          </code>
          <IconButton size="sm" label={`Remove filter on ${f.column}`} icon={<X size={12} aria-hidden="true" />} onClick={() => onChange(filters.filter((_, i) => i !== index))} />
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
