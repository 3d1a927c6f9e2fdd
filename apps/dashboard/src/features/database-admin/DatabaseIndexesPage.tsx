import type { PgMetaIndex } from '@stratum/contracts'
import { ListTree, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { TableHead } from '../../components/ui/TableHead'
import { databaseAdminKeys } from '../../data/database-admin/keys'
import { useIndexes, useIndexStats } from '../../data/database-admin/useIndexes'
import type { IndexStats } from '../../data/database-admin/types'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import type { PendingSql } from '../table-editor'
import { CreateIndexDialog } from './CreateIndexDialog'
import { buildDropIndex } from './sql/indexes'
import { DatabasePage, EmptyList, READ_ONLY_REASON, useDatabasePage, useSchemaSearch } from '../database-pages'
import './database-admin.css'

interface IndexRow {
  index: PgMetaIndex
  stats: IndexStats | undefined
}

/** Why an index cannot be dropped on its own: the constraint it enforces owns it. */
const CONSTRAINT_REASON: Record<NonNullable<IndexStats['constraint']>, string> = {
  p: "It enforces the table's primary key: drop the constraint instead",
  u: 'It enforces a unique constraint: drop the constraint instead',
  x: 'It enforces an exclusion constraint: drop the constraint instead',
}

/** /project/{ref}/database/indexes: a schema's indexes with their table, definition, size and scans; create and drop. */
export function DatabaseIndexesPage() {
  useProjectPageTitle('Indexes')
  const page = useDatabasePage(databaseAdminKeys.all)
  const { ref, canWrite, preview } = page
  const schemaSearch = useSchemaSearch()
  const { schema, search } = schemaSearch
  const indexes = useIndexes(ref, schema)
  const stats = useIndexStats(ref, schema)
  const [creating, setCreating] = useState(false)

  const rows = useMemo<IndexRow[]>(() => {
    const byId = new Map((stats.data ?? []).map((entry) => [entry.id, entry]))
    const needle = search.trim().toLowerCase()
    return (indexes.data ?? [])
      .map((index) => ({ index, stats: byId.get(index.id) }))
      .filter(({ index, stats: entry }) => !needle || [entry?.name, entry?.table, index.index_definition].some((text) => text?.toLowerCase().includes(needle)))
  }, [indexes.data, stats.data, search])

  return (
    <DatabasePage
      title="Indexes"
      description="Indexes let Postgres find rows without reading the whole table. Each one takes space and slows writes a little: the scans column shows whether it is used."
      page={page}
      toolbar={{ state: schemaSearch, searchLabel: 'Search for an index', placeholder: 'Search by table, name or definition' }}
      create={{ label: 'Create index', onClick: () => setCreating(true) }}
      dialogs={creating ? <CreateIndexDialog projectRef={ref} schema={schema} onClose={() => setCreating(false)} onPreview={preview} /> : null}
    >
      {indexes.isPending ? (
        <LoadingState label="Loading indexes…" />
      ) : indexes.isError ? (
        <QueryError query={indexes} title="Could not load the indexes" />
      ) : rows.length === 0 ? (
        <EmptyList
          icon={<ListTree size={22} />}
          search={search}
          noMatch="No index matches your search"
          empty={`No indexes in schema ${schema}`}
          emptyDescription="Indexes of this schema’s tables appear here, those of primary keys and unique constraints included."
        />
      ) : (
        <IndexesTable rows={rows} canWrite={canWrite} onDrop={(row) => preview(dropIndexSql(schema, row))} />
      )}
      {stats.isError ? <QueryError query={stats} title="Could not read the indexes’ sizes and scans" /> : null}
    </DatabasePage>
  )
}

function dropIndexSql(schema: string, { stats }: IndexRow): PendingSql {
  const name = stats?.name ?? ''
  return { title: `Drop index ${name}`, sql: buildDropIndex({ schema, name }), done: `Index ${name} dropped`, destructive: true }
}

function IndexesTable({ rows, canWrite, onDrop }: { rows: IndexRow[]; canWrite: boolean; onDrop: (row: IndexRow) => void }) {
  return (
    <Card flush>
      <table className="table dba-table" aria-label="Indexes">
        <TableHead columns={['Table', 'Name', 'Definition', 'Size', 'Scans', { hidden: 'Actions' }]} />
        <tbody>
          {rows.map((row) => {
            const { index, stats } = row
            const blocked = stats?.constraint ? CONSTRAINT_REASON[stats.constraint] : undefined
            return (
              <tr key={index.id}>
                <td className="mono nowrap">{stats?.table ?? ''}</td>
                <td className="mono nowrap">
                  {stats?.name ?? ''}
                  {index.is_valid ? null : <span className="muted"> (invalid)</span>}
                </td>
                <td className="mono dba-definition">{definitionTail(index.index_definition)}</td>
                <td className="nowrap dba-number">{stats?.size ?? ''}</td>
                <td className="nowrap dba-number">{stats ? stats.scans.toLocaleString() : ''}</td>
                <td className="dba-actions">
                  <IconButton
                    label={`Drop index ${stats?.name ?? ''}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    disabled={!canWrite || Boolean(blocked) || !stats}
                    disabledReason={!canWrite ? READ_ONLY_REASON : blocked}
                    onClick={() => onDrop(row)}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </Card>
  )
}

/** The definition from USING on: the table and name are in their own columns. */
function definitionTail(definition: string): string {
  const at = definition.indexOf(' USING ')
  return at >= 0 ? definition.slice(at + 1) : definition
}
