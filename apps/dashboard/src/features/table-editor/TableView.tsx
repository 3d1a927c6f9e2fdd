import { buildCappedCount, buildDeleteRows, buildPageQuery, TABLE_EDITOR_PAGE_SIZE, TableEditorInputError, type PageCursor } from '@stratum/sql'
import { Filter, Plus, Trash2, Upload } from 'lucide-react'
import { useCallback, useMemo, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import type { EditorRelation } from '../../data/table-editor/types'
import { useRowsPage } from '../../data/table-editor/useRowsPage'
import { useRunTableSql } from '../../data/table-editor/useRunTableSql'
import { FilterBar } from './FilterBar'
import { ImportCsvDialog, RowsGrid } from './lazy'
import { Pager } from './Pager'
import { pagerState } from './paging'
import { RowEditorDialog } from './RowEditorDialog'
import { rowKeyOf, type EditorRow } from './rows'
import { SqlErrorAlert } from './SqlErrorAlert'
import { useTableUrlState } from './useTableUrlState'

interface TableViewProps {
  projectRef: string
  relation: EditorRelation
  canWrite: boolean
}

/** One table or view: its rows page by page (sorted and filtered by the database), with row writes for members who may write. */
export function TableView({ projectRef, relation, canWrite }: TableViewProps) {
  const toast = useToast()
  const { sort, filters, setSort, setFilters } = useTableUrlState()
  const names = useMemo(() => relation.columns.map((column) => column.name), [relation])
  const known = useMemo(() => new Set(names), [names])
  const activeSort = sort && known.has(sort.column) ? sort : undefined
  const activeFilters = useMemo(() => filters.filter((filter) => known.has(filter.column)), [filters, known])
  const stateKey = `${relation.id}|${activeSort ? `${activeSort.column}:${activeSort.ascending}` : ''}|${JSON.stringify(activeFilters)}`
  const [paging, setPaging] = useState<{ stateKey: string; cursor: PageCursor }>({ stateKey, cursor: { kind: 'first' } })
  // A new sort or filter starts from the first page.
  const cursor: PageCursor = useMemo(() => (paging.stateKey === stateKey ? paging.cursor : { kind: 'first' }), [paging, stateKey])
  const [filterOpen, setFilterOpen] = useState(false)
  const [editing, setEditing] = useState<{ row: EditorRow | undefined; column?: string | undefined; serial: number } | undefined>()
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [importing, setImporting] = useState(false)
  const run = useRunTableSql(projectRef)

  const isTable = relation.type === 'table' || relation.type === 'partitioned table'
  const editable = canWrite && isTable && relation.primary_keys.length > 0
  const built = useMemo(() => {
    try {
      const page = buildPageQuery({ relation, columns: names, primaryKey: relation.primary_keys, hasCtid: relation.type === 'table', filters: activeFilters, sort: activeSort, cursor })
      return { page, count: buildCappedCount(relation, activeFilters) }
    } catch (error) {
      if (error instanceof TableEditorInputError) return { error: error.message }
      throw error
    }
  }, [relation, names, activeFilters, activeSort, cursor])
  const rows = useRowsPage(projectRef, relation.id, built.page?.sql, built.count ?? '', built.page?.reversed ?? false)
  const pageRows = useMemo(() => rows.data?.rows ?? [], [rows.data])
  const pager = pagerState({
    cursor,
    keyset: built.page?.keyset ?? false,
    canReadFromEnd: built.page?.canReadFromEnd ?? false,
    rows: pageRows,
    pageSize: TABLE_EDITOR_PAGE_SIZE,
    primaryKey: relation.primary_keys,
    count: rows.data?.count ?? 0,
  })
  const onEditRow = useCallback((row: EditorRow, column?: string) => setEditing({ row, column, serial: Date.now() }), [])
  const selectedRows = pageRows.filter((row) => selected.has(rowKeyOf(relation.primary_keys)(row)))

  const deleteSelected = () => {
    const keys = selectedRows.map((row) => ({ columns: relation.primary_keys, values: relation.primary_keys.map((name) => row[name] ?? null) }))
    run.mutate(buildDeleteRows(relation, keys), {
      onSuccess: () => {
        toast.success(`Deleted ${keys.length} ${keys.length === 1 ? 'row' : 'rows'}`)
        setSelected(new Set())
        setConfirmDelete(false)
      },
    })
  }

  let readOnlyReason: string | undefined
  if (!canWrite) readOnlyReason = 'Read-only: your role can browse this table but not change it.'
  else if (!isTable) readOnlyReason = `This is a ${relation.type}: its rows are read here, not edited.`
  else if (relation.primary_keys.length === 0) readOnlyReason = 'This table has no primary key: rows can be inserted but not edited or deleted here.'

  return (
    <section className="te-table" aria-label={`${relation.schema}.${relation.name}`}>
      <div className="te-toolbar">
        <Pager
          state={pager}
          count={rows.data?.count}
          estimate={relation.live_rows_estimate}
          filtered={activeFilters.length > 0}
          onMove={(next) => setPaging({ stateKey, cursor: next })}
        />
        <div className="te-toolbar-actions">
          <Button size="sm" variant="ghost" icon={<Filter size={14} aria-hidden="true" />} aria-expanded={filterOpen} onClick={() => setFilterOpen((open) => !open)}>
            Filter{activeFilters.length ? ` (${activeFilters.length})` : ''}
          </Button>
          {editable && selectedRows.length ? (
            <Button size="sm" variant="danger" icon={<Trash2 size={14} aria-hidden="true" />} onClick={() => setConfirmDelete(true)}>
              Delete {selectedRows.length} {selectedRows.length === 1 ? 'row' : 'rows'}
            </Button>
          ) : null}
          {canWrite && isTable ? (
            <Button size="sm" variant="secondary" icon={<Upload size={14} aria-hidden="true" />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
          ) : null}
          {canWrite && isTable ? (
            <Button size="sm" variant="primary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing({ row: undefined, serial: Date.now() })}>
              Insert row
            </Button>
          ) : null}
        </div>
      </div>
      {filterOpen || activeFilters.length ? <FilterBar columns={names} filters={activeFilters} open={filterOpen} onChange={(change) => setFilters((latest) => change(latest.filter((filter) => known.has(filter.column))))} /> : null}
      {readOnlyReason ? <div className="te-readonly-note">{readOnlyReason}</div> : null}
      <div className="te-grid-area">
        {built.error ? (
          <div className="te-message">
            <Alert tone="danger" title="This filter cannot run">
              {built.error}
            </Alert>
          </div>
        ) : rows.isError ? (
          <div className="te-message">
            <SqlErrorAlert error={rows.error} title="Failed to load rows" />
          </div>
        ) : rows.isPending ? (
          <LoadingState label="Loading rows…" />
        ) : (
          <RowsGrid
            relation={relation}
            rows={pageRows}
            sort={activeSort}
            onSortChange={setSort}
            editable={editable}
            selected={selected}
            onSelectedChange={setSelected}
            onEditRow={onEditRow}
          />
        )}
      </div>
      {importing ? (
        <ImportCsvDialog projectRef={projectRef} schema={relation.schema} relation={relation} onClose={() => setImporting(false)} onImported={() => setImporting(false)} />
      ) : null}
      {editing ? (
        <RowEditorDialog key={editing.serial} projectRef={projectRef} relation={relation} row={editing.row} focusColumn={editing.column} open onClose={() => setEditing(undefined)} />
      ) : null}
      <Dialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        size="sm"
        title={`Delete ${selectedRows.length} ${selectedRows.length === 1 ? 'row' : 'rows'}?`}
        description={`The selected rows of ${relation.name} are deleted for good.`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button variant="danger" loading={run.isPending} onClick={deleteSelected}>
              Delete
            </Button>
          </>
        }
      >
        {run.error ? <SqlErrorAlert error={run.error} title="Failed to delete rows" /> : null}
      </Dialog>
    </section>
  )
}
