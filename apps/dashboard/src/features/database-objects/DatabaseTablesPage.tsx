import type { PgMetaTable } from '@stratum/contracts'
import { Table2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { TableHead } from '../../components/ui/TableHead'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useDatabaseTables } from '../../data/database-objects/useDatabaseTables'
import { useRealtimeTableIds } from '../../data/database-objects/useRealtimeTableIds'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { matchesSearch, SchemaSearchToolbar } from '../../components/project/SchemaSearchToolbar'
import { useSchemaParam } from '../database-pages'
import './database-objects.css'

/** /project/{ref}/database/tables: a schema's tables with their size, row estimate, RLS and Realtime, each opening in the table editor. */
export function DatabaseTablesPage() {
  useProjectPageTitle('Tables')
  const { ref } = useCurrentProject()
  const [schema, setSchema] = useSchemaParam()
  const [search, setSearch] = useState('')
  const tables = useDatabaseTables(ref, schema)
  const realtime = useRealtimeTableIds(ref)
  const shown = useMemo(() => (tables.data ?? []).filter((table) => matchesSearch(search, table.name, table.comment)), [tables.data, search])
  const inRealtime = (table: PgMetaTable) => realtime.data === 'all' || (realtime.data?.has(table.id) ?? false)

  return (
    <div className="page">
      <PageHeader title="Tables" description="The tables of each schema, with their size and estimated rows. Open one in the Table Editor to browse and change it." />
      <div className="stack">
        <SchemaSearchToolbar projectRef={ref} schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} searchLabel="Search for a table" />
        <QueryState
          query={tables}
          loadingLabel="Loading tables…"
          errorTitle="Could not load the tables"
          isEmpty={shown.length === 0}
          empty={
            <Card>
              <EmptyState
                icon={<Table2 size={22} />}
                title={search.trim() ? 'No table matches your search' : `No tables in schema ${schema}`}
                description={search.trim() ? `Nothing named or described like "${search.trim()}".` : 'Create one in the Table Editor.'}
              />
            </Card>
          }
        >
          <Card flush>
            <table className="table dbo-table" aria-label="Tables">
              <TableHead columns={['Name', 'Description', 'Rows (estimated)', 'Size', 'Row Level Security', 'Realtime']} />
              <tbody>
                {shown.map((table) => (
                  <tr key={table.id}>
                    <td className="mono nowrap">
                      <Link className="dbo-link" to={`/project/${ref}/editor/${table.id}?schema=${encodeURIComponent(table.schema)}`}>
                        {table.name}
                      </Link>
                    </td>
                    <td className="dbo-description">{table.comment ?? <span className="muted">-</span>}</td>
                    <td className="dbo-numeric">{table.live_rows_estimate.toLocaleString('en-US')}</td>
                    <td className="dbo-numeric">{table.size}</td>
                    <td>{table.rls_enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}</td>
                    <td>{inRealtime(table) ? <Badge tone="info">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </QueryState>
      </div>
    </div>
  )
}
