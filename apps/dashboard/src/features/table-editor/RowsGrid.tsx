import { columnWidth, type GridSort } from '@stratum/sql'
import { ArrowDown, ArrowUp, Key, Link2, Pencil } from 'lucide-react'
import { useMemo, useState } from 'react'
import { DataGrid, SelectColumn, type Column, type SortColumn } from 'react-data-grid'
import 'react-data-grid/lib/styles.css'
import type { EditorColumn, EditorRelation } from '../../data/table-editor/types'
import { CellViewerDialog, type ViewedCell } from '../results-grid'
import { rowKeyOf, type EditorRow } from './rows'

interface RowsGridProps {
  relation: EditorRelation
  rows: readonly EditorRow[]
  sort: GridSort | undefined
  onSortChange: (sort: GridSort | undefined) => void
  /** Row selection and the edit button: only for members who may write, on a table with a primary key. */
  editable: boolean
  selected: ReadonlySet<string>
  onSelectedChange: (selected: Set<string>) => void
  /** Opens the row's form; `column`: the field to focus (a double-clicked cell). */
  onEditRow: (row: EditorRow, column?: string) => void
}

const ROW_HEIGHT = 32
const WIDTH_SAMPLE = 40

function HeaderCell({ column, isKey, references, sortDirection }: { column: EditorColumn; isKey: boolean; references: string | undefined; sortDirection: 'ASC' | 'DESC' | undefined }) {
  return (
    <span className="te-header" title={column.comment ?? undefined}>
      <span className="te-header-name">
        {isKey ? <Key size={12} aria-label="primary key" /> : null}
        {references ? <Link2 size={12} aria-label={`references ${references}`} /> : null}
        {column.name}
        {sortDirection === 'ASC' ? <ArrowUp size={12} aria-label="sorted ascending" /> : null}
        {sortDirection === 'DESC' ? <ArrowDown size={12} aria-label="sorted descending" /> : null}
      </span>
      <span className="te-header-type">{column.dataType}</span>
    </span>
  )
}

/** The rows of one page: column names with their types, server-side sort, the cell viewer on double-click. */
export function RowsGrid({ relation, rows, sort, onSortChange, editable, selected, onSelectedChange, onEditRow }: RowsGridProps) {
  const [viewed, setViewed] = useState<ViewedCell | null>(null)
  const keyColumns = relation.primary_keys
  const columns = useMemo<Column<EditorRow>[]>(() => {
    const sample = rows.slice(0, WIDTH_SAMPLE)
    const references = new Map(relation.relationships.map((r) => [r.source_column_name, `${r.target_table_schema}.${r.target_table_name}.${r.target_column_name}`]))
    const data: Column<EditorRow>[] = relation.columns.map((column) => ({
      key: column.name,
      name: column.name,
      width: Math.max(columnWidth(column.name, sample.map((row) => row[column.name])), Math.min(260, column.dataType.length * 7 + 24)),
      resizable: true,
      sortable: true,
      renderHeaderCell: ({ sortDirection }) => (
        <HeaderCell column={column} isKey={keyColumns.includes(column.name)} references={references.get(column.name)} sortDirection={sortDirection} />
      ),
      renderCell: ({ row }) => {
        const value = row[column.name]
        return value === null || value === undefined ? <span className="grid-null">NULL</span> : value
      },
    }))
    if (!editable) return data
    const edit: Column<EditorRow> = {
      key: '__edit',
      name: '',
      width: 36,
      frozen: true,
      renderCell: ({ row }) => (
        <button type="button" className="te-row-edit" aria-label="Edit row" title="Edit row" onClick={() => onEditRow(row)}>
          <Pencil size={13} aria-hidden="true" />
        </button>
      ),
    }
    return [SelectColumn as Column<EditorRow>, edit, ...data]
  }, [relation, rows, editable, keyColumns, onEditRow])

  // A cell opened (double-click, Enter): edited in the row's form, focused on it, where the table is editable; else viewed.
  const openCell = (row: EditorRow, column: string) => (editable ? onEditRow(row, column) : setViewed({ column, value: row[column] ?? null }))
  const sortColumns: SortColumn[] = sort ? [{ columnKey: sort.column, direction: sort.ascending ? 'ASC' : 'DESC' }] : []

  return (
    <>
      <DataGrid
        className="te-grid"
        aria-label={`Rows of ${relation.name}`}
        columns={columns}
        rows={rows}
        rowKeyGetter={rowKeyOf(keyColumns)}
        selectedRows={editable ? selected : undefined}
        onSelectedRowsChange={editable ? onSelectedChange : undefined}
        rowHeight={ROW_HEIGHT}
        headerRowHeight={44}
        sortColumns={sortColumns}
        onSortColumnsChange={(next) => {
          const first = next[0]
          onSortChange(first ? { column: first.columnKey, ascending: first.direction === 'ASC' } : undefined)
        }}
        onCellDoubleClick={({ row, column }) => {
          if (column.key.startsWith('__') || column.key === SelectColumn.key) return
          openCell(row, column.key)
        }}
        onCellKeyDown={({ mode, row, column }, event) => {
          if (mode !== 'ACTIVE' || !row || !column || column.key.startsWith('__') || column.key === SelectColumn.key) return
          if (event.key === 'Enter') {
            event.preventGridDefault()
            openCell(row, column.key)
          }
        }}
        renderers={{ noRowsFallback: <div className="te-grid-empty">Success. No rows returned</div> }}
      />
      {viewed ? <CellViewerDialog cell={viewed} onClose={() => setViewed(null)} /> : null}
    </>
  )
}
