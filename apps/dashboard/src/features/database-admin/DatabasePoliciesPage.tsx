import type { PgMetaPolicy, PgMetaTable } from '@stratum/contracts'
import { ShieldCheck } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { databaseAdminKeys } from '../../data/database-admin/keys'
import { usePolicies } from '../../data/database-admin/usePolicies'
import { useSchemaTables } from '../../data/database-admin/useSchemaTables'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import type { PendingSql } from '../table-editor'
import { PoliciesSummary, TablePoliciesEditor } from './TablePolicies'
import { DatabasePage, useDatabasePage, useSchemaSearch } from '../database-pages'
import './database-admin.css'

/** /project/{ref}/database/policies: every table of a schema with its RLS state and policies; the table editor's editor for each. */
export function DatabasePoliciesPage() {
  useProjectPageTitle('Policies')
  const page = useDatabasePage(databaseAdminKeys.all)
  const { ref, canWrite, preview } = page
  const schemaSearch = useSchemaSearch()
  const { schema, search } = schemaSearch
  const tables = useSchemaTables(ref, schema)
  const policies = usePolicies(ref, schema)
  const [open, setOpen] = useState<number | undefined>()

  const byTable = useMemo(() => {
    const grouped = new Map<number, PgMetaPolicy[]>()
    for (const policy of policies.data ?? []) grouped.set(policy.table_id, [...(grouped.get(policy.table_id) ?? []), policy])
    return grouped
  }, [policies.data])
  const needle = search.trim().toLowerCase()
  const shown = (tables.data ?? []).filter(
    (table) =>
      !needle || table.name.toLowerCase().includes(needle) || (byTable.get(table.id) ?? []).some((policy) => policy.name.toLowerCase().includes(needle)),
  )

  return (
    <DatabasePage
      title="Policies"
      description="Row Level Security policies decide which rows each role reads and writes through the API. A table without RLS is open to every role its grants allow."
      page={page}
      toolbar={{ state: schemaSearch, searchLabel: 'Search for a table or policy', placeholder: 'Search by table or policy' }}
    >
      {tables.isPending || policies.isPending ? (
        <LoadingState label="Loading policies…" />
      ) : tables.isError ? (
        <QueryError query={tables} title="Could not load the tables" />
      ) : policies.isError ? (
        <QueryError query={policies} title="Could not load the policies" />
      ) : shown.length === 0 ? (
        <Card>
          <EmptyState icon={<ShieldCheck size={22} />} title={needle ? 'No table or policy matches your search' : `No tables in ${schema}`} />
        </Card>
      ) : (
        shown.map((table) => (
          <TableCard
            key={table.id}
            projectRef={ref}
            table={table}
            policies={byTable.get(table.id) ?? []}
            open={open === table.id}
            onToggle={() => setOpen(open === table.id ? undefined : table.id)}
            canWrite={canWrite}
            onPreview={preview}
          />
        ))
      )}
    </DatabasePage>
  )
}

interface TableCardProps {
  projectRef: string
  table: PgMetaTable
  policies: PgMetaPolicy[]
  open: boolean
  onToggle: () => void
  canWrite: boolean
  onPreview: (pending: PendingSql) => void
}

function TableCard({ projectRef, table, policies, open, onToggle, canWrite, onPreview }: TableCardProps) {
  return (
    <Card
      aria-label={`Policies of ${table.name}`}
      role="region"
      title={
        <span className="dba-table-title">
          <span className="mono">{table.name}</span>
          {table.rls_enabled ? <Badge tone="success">RLS enabled</Badge> : <Badge tone="warning">RLS disabled</Badge>}
          <span className="dba-muted">
            {policies.length} {policies.length === 1 ? 'policy' : 'policies'}
          </span>
        </span>
      }
      actions={
        <Button size="sm" onClick={onToggle} aria-expanded={open} aria-label={`${open ? 'Close' : canWrite ? 'Edit' : 'Open'} the policies of ${table.name}`}>
          {open ? 'Close' : canWrite ? 'Edit' : 'Open'}
        </Button>
      }
      flush
    >
      {open ? (
        <TablePoliciesEditor projectRef={projectRef} tableId={table.id} canWrite={canWrite} onPreview={onPreview} />
      ) : (
        <PoliciesSummary policies={policies} />
      )}
    </Card>
  )
}
