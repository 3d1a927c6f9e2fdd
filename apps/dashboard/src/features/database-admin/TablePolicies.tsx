import type { PgMetaPolicy } from '@stratum/contracts'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { TableHead } from '../../components/ui/TableHead'
import { useRelation } from '../../data/table-editor/useCatalog'
import { PoliciesView, type PendingSql } from '../table-editor'

/** A table's policies at a glance, from postgres-meta's listing. */
export function PoliciesSummary({ policies }: { policies: PgMetaPolicy[] }) {
  if (policies.length === 0) return <p className="dba-muted dba-card-empty">No policies on this table.</p>
  return (
    <table className="table dba-table">
      <TableHead columns={['Name', 'Command', 'Roles', 'USING', 'WITH CHECK']} />
      <tbody>
        {policies.map((policy) => (
          <tr key={policy.id}>
            <td className="nowrap">
              {policy.name}
              {policy.action === 'RESTRICTIVE' ? <span className="muted"> (restrictive)</span> : null}
            </td>
            <td className="mono nowrap">{policy.command}</td>
            <td className="mono">{policy.roles.join(', ')}</td>
            <td className="mono dba-definition">{policy.definition ?? ''}</td>
            <td className="mono dba-definition">{policy.check ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

interface TablePoliciesEditorProps {
  projectRef: string
  tableId: number
  canWrite: boolean
  onPreview: (pending: PendingSql) => void
}

/** The table editor's policies editor (RLS switch, create, drop) for one table, read as the table editor reads it. */
export function TablePoliciesEditor({ projectRef, tableId, canWrite, onPreview }: TablePoliciesEditorProps) {
  const relation = useRelation(projectRef, tableId)
  if (relation.isPending) return <LoadingState label="Loading the table…" />
  if (relation.isError) return <QueryError query={relation} title="Could not load the table" />
  if (!relation.data) return <p className="dba-muted dba-card-empty">This table no longer exists.</p>
  return (
    <div className="dba-policies-editor">
      <PoliciesView projectRef={projectRef} relation={relation.data} canWrite={canWrite} onPreview={onPreview} />
    </div>
  )
}
