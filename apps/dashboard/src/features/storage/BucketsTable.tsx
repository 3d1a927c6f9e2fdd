import type { Bucket } from '@stratum/contracts'
import { Pencil, Trash2 } from 'lucide-react'
import { Link } from 'react-router'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { formatBytes, formatDateTime } from '../../lib/format'
import { STORAGE_TEXTS } from './texts'
import { TableHead } from '../../components/ui/TableHead'

function MimeTypes({ types }: { types: string[] | null }) {
  if (types === null) return <span className="muted">Any</span>
  if (types.length === 0) return <span className="muted">None</span>
  return <span className="mono storage-mime">{types.join(', ')}</span>
}

interface BucketsTableProps {
  buckets: Bucket[]
  canWrite: boolean
  onEdit: (bucket: Bucket) => void
  onDelete: (bucket: Bucket) => void
}

export function BucketsTable({ buckets, canWrite, onEdit, onDelete }: BucketsTableProps) {
  return (
    <Card flush>
      <table className="table" aria-label="Buckets">
        <TableHead columns={['Name', 'Access', 'Allowed MIME types', 'File size limit', 'Created', { hidden: 'Actions' }]} />
        <tbody>
          {buckets.map((bucket) => (
            <tr key={bucket.id}>
              <td>
                <Link className="mono storage-bucket-link" to={`buckets/${encodeURIComponent(bucket.id)}`}>
                  {bucket.name}
                </Link>
              </td>
              <td>{bucket.public ? <Badge tone="warning">Public</Badge> : <Badge tone="neutral">Private</Badge>}</td>
              <td>
                <MimeTypes types={bucket.allowed_mime_types} />
              </td>
              <td className="nowrap">
                {bucket.file_size_limit === null ? <span className="muted">No limit</span> : formatBytes(bucket.file_size_limit)}
              </td>
              <td className="nowrap">
                <time dateTime={bucket.created_at}>{formatDateTime(bucket.created_at)}</time>
              </td>
              <td className="table-actions">
                <IconButton
                  size="sm"
                  label={`Edit bucket ${bucket.name}`}
                  icon={<Pencil size={14} aria-hidden="true" />}
                  onClick={() => onEdit(bucket)}
                  disabled={!canWrite}
                  disabledReason={STORAGE_TEXTS.writePermission}
                />
                <IconButton
                  size="sm"
                  label={`Delete bucket ${bucket.name}`}
                  icon={<Trash2 size={14} aria-hidden="true" />}
                  onClick={() => onDelete(bucket)}
                  disabled={!canWrite}
                  disabledReason={STORAGE_TEXTS.writePermission}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
