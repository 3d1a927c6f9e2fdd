import type { GitHubConnection } from '@stratum/contracts'
import { ExternalLink, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { TableHead } from '../../components/ui/TableHead'
import { formatDateTime } from '../../lib/format'
import { RemoveGitHubConnectionDialog } from './RemoveGitHubConnectionDialog'

interface GitHubConnectionsTableProps {
  connections: GitHubConnection[]
  /** Owners and administrators see a Remove button on each row. */
  canManage: boolean
}

export function GitHubConnectionsTable({ connections, canManage }: GitHubConnectionsTableProps) {
  const [removing, setRemoving] = useState<GitHubConnection | null>(null)
  const columns = ['Repository', 'Project', 'Working directory', 'Added', ...(canManage ? [{ hidden: 'Actions' }] : [])]
  return (
    <div className="card card-body-flush">
      <table className="table" aria-label="GitHub connections">
        <TableHead columns={columns} />
        <tbody>
          {connections.map((connection) => (
            <tr key={connection.id}>
              <td>
                <a className="connection-repo mono" href={`https://github.com/${connection.repository.name}`} target="_blank" rel="noreferrer noopener">
                  {connection.repository.name}
                  <ExternalLink size={12} aria-hidden="true" />
                </a>
              </td>
              <td>
                <Link to={`/project/${connection.project.ref}`}>{connection.project.name}</Link>
                <div className="faint mono connection-ref">{connection.project.ref}</div>
              </td>
              <td className="mono">{connection.workdir}</td>
              <td className="muted nowrap">{formatDateTime(connection.inserted_at)}</td>
              {canManage ? (
                <td className="table-actions">
                  <IconButton
                    size="sm"
                    label={`Remove the connection to ${connection.repository.name}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    onClick={() => setRemoving(connection)}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <RemoveGitHubConnectionDialog connection={removing} onClose={() => setRemoving(null)} />
    </div>
  )
}
