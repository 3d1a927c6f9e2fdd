import type { PgMetaPublication } from '@stratum/contracts'
import { useState } from 'react'
import { Card } from '../../components/ui/Card'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'
import { useSchemaTables } from '../../data/database-admin/useSchemaTables'
import type { PendingSql } from '../table-editor'
import { SchemaSelect } from '../../components/project/SchemaSearchToolbar'
import { useRevealOnOpen } from './useRevealOnOpen'
import { buildSetPublicationTable } from './sql/publications'

interface PublicationTablesProps {
  projectRef: string
  publication: PgMetaPublication
  /** Why the switches are off (no write permission, the platform's publication), if they are. */
  lock: string | undefined
  onPreview: (pending: PendingSql) => void
}

/** One schema's tables with a switch each: in the publication (its changes are sent) or not. */
export function PublicationTables({ projectRef, publication, lock, onPreview }: PublicationTablesProps) {
  const [schema, setSchema] = useState('public')
  const anchor = useRevealOnOpen<HTMLDivElement>(publication.name)
  const tables = useSchemaTables(projectRef, schema)
  const included = new Set((publication.tables ?? []).map((table) => `${table.schema}.${table.name}`))
  const allTables = publication.tables === null
  const reason = allTables ? 'This publication sends every table (FOR ALL TABLES)' : lock

  return (
    <div ref={anchor}>
      <Card
        title={`Tables in ${publication.name}`}
        description={
          allTables ? 'Created FOR ALL TABLES: every table’s changes are sent, now and later.' : 'Switch a table on to send its changes, off to stop.'
        }
        actions={<SchemaSelect projectRef={projectRef} value={schema} onChange={setSchema} />}
        flush
      >
        {tables.isPending ? (
          <LoadingState label="Loading tables…" />
        ) : tables.isError ? (
          <QueryError query={tables} title="Could not load the tables" />
        ) : tables.data.length === 0 ? (
          <p className="dba-muted dba-card-empty">No tables in {schema}.</p>
        ) : (
          <table className="table dba-table" aria-label={`Tables of ${publication.name}`}>
            <TableHead columns={['Table', 'Row level security', 'Replica identity', 'Published']} />
            <tbody>
              {tables.data.map((table) => {
                const on = allTables || included.has(`${schema}.${table.name}`)
                return (
                  <tr key={table.id}>
                    <td className="mono nowrap">{table.name}</td>
                    <td>{table.rls_enabled ? 'Enabled' : <span className="muted">Disabled</span>}</td>
                    <td className="mono">{table.replica_identity.toLowerCase()}</td>
                    <td className="dba-actions">
                      <Switch
                        label={`Publish ${table.name} in ${publication.name}`}
                        checked={on}
                        disabled={Boolean(reason)}
                        disabledReason={reason}
                        onCheckedChange={(next) =>
                          onPreview({
                            title: `${next ? 'Add' : 'Remove'} ${table.name} ${next ? 'to' : 'from'} ${publication.name}`,
                            sql: buildSetPublicationTable(publication.name, { schema, name: table.name }, next),
                            done: `Table ${table.name} ${next ? 'added to' : 'removed from'} ${publication.name}`,
                          })
                        }
                      />
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  )
}
