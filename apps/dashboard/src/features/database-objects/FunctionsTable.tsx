import type { PgMetaFunction } from '@stratum/contracts'
import { Pencil, Trash2 } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TableHead } from '../../components/ui/TableHead'
import { READ_ONLY_REASON } from '../database-pages'

interface FunctionsTableProps {
  functions: PgMetaFunction[]
  canWrite: boolean
  onEdit: (fn: PgMetaFunction) => void
  onDelete: (fn: PgMetaFunction) => void
}

/** Functions written in C or built in have no body to edit here. */
const hasEditableBody = (fn: PgMetaFunction) => fn.language !== 'c' && fn.language !== 'internal'

/** One row per function: its signature, what it returns, its language and security, and its actions. */
export function FunctionsTable({ functions, canWrite, onEdit, onDelete }: FunctionsTableProps) {
  return (
    <Card flush>
      <table className="table dbo-table" aria-label="Functions">
        <TableHead columns={['Name', 'Arguments', 'Return type', 'Language', 'Security', { hidden: 'Actions' }]} />
        <tbody>
          {functions.map((fn) => (
            <tr key={fn.id}>
              <td className="mono nowrap">{fn.name}</td>
              <td className="mono dbo-description">{fn.argument_types || <span className="muted">-</span>}</td>
              <td className="mono">{fn.return_type}</td>
              <td className="mono">{fn.language}</td>
              <td>{fn.security_definer ? <Badge tone="warning">Definer</Badge> : <Badge tone="neutral">Invoker</Badge>}</td>
              <td className="dbo-actions">
                <IconButton
                  size="sm"
                  icon={<Pencil size={14} />}
                  label={`Edit function ${fn.name}`}
                  disabled={!canWrite || !hasEditableBody(fn)}
                  disabledReason={!canWrite ? READ_ONLY_REASON : hasEditableBody(fn) ? undefined : `A ${fn.language} function has no body to edit`}
                  onClick={() => onEdit(fn)}
                />
                <IconButton
                  size="sm"
                  icon={<Trash2 size={14} />}
                  label={`Delete function ${fn.name}`}
                  disabled={!canWrite}
                  disabledReason={canWrite ? undefined : READ_ONLY_REASON}
                  onClick={() => onDelete(fn)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
