import { Download, File, Folder, Link2, MoveRight, Trash2 } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TableHead } from '../../components/ui/TableHead'
import { objectDownloadUrl, type StorageItem } from '../../data/storage/objects'
import { formatBytes, formatDateTime } from '../../lib/format'
import { isFolder, joinPath } from './objectPaths'
import { STORAGE_TEXTS } from './texts'

interface ObjectsTableProps {
  projectRef: string
  bucket: string
  folder: string
  items: StorageItem[]
  selected: string | null
  canWrite: boolean
  /** Beside the preview panel: no Last modified column (the panel shows it), so the actions stay in view. */
  compact: boolean
  onOpenFolder: (path: string) => void
  onSelect: (item: StorageItem) => void
  onCopyUrl: (path: string) => void
  onMove: (path: string) => void
  onDelete: (path: string) => void
}

/** One folder of a bucket: folders first (open on click), then files (preview on click) with their actions. */
export function ObjectsTable({
  projectRef,
  bucket,
  folder,
  items,
  selected,
  canWrite,
  compact,
  onOpenFolder,
  onSelect,
  onCopyUrl,
  onMove,
  onDelete,
}: ObjectsTableProps) {
  return (
    <Card flush>
      <table className="table storage-objects" aria-label={`Files in ${folder || bucket}`}>
        <TableHead columns={compact ? ['Name', 'Size', 'Type', { hidden: 'Actions' }] : ['Name', 'Size', 'Type', 'Last modified', { hidden: 'Actions' }]} />
        <tbody>
          {items.map((item) => {
            const path = joinPath(folder, item.name)
            if (isFolder(item)) {
              return (
                <tr key={`folder:${item.name}`}>
                  <td colSpan={compact ? 4 : 5}>
                    <button type="button" className="storage-item-name" onClick={() => onOpenFolder(path)}>
                      <Folder size={15} aria-hidden="true" className="storage-folder-icon" />
                      <span className="mono">{item.name}</span>
                    </button>
                  </td>
                </tr>
              )
            }
            return (
              <tr key={item.id} aria-selected={selected === path} className={selected === path ? 'is-selected' : undefined}>
                <td>
                  <button type="button" className="storage-item-name" onClick={() => onSelect(item)}>
                    <File size={15} aria-hidden="true" />
                    <span className="mono">{item.name}</span>
                  </button>
                </td>
                <td className="nowrap">{formatBytes(item.metadata?.size ?? 0)}</td>
                <td className="mono nowrap">{item.metadata?.mimetype ?? '—'}</td>
                {compact ? null : (
                  <td className="nowrap">{item.updated_at ? <time dateTime={item.updated_at}>{formatDateTime(item.updated_at)}</time> : '—'}</td>
                )}
                <td className="table-actions">
                  <a className="btn btn-ghost btn-sm btn-icon" href={objectDownloadUrl(projectRef, bucket, path, true)} download={item.name}>
                    <Download size={14} aria-hidden="true" />
                    <span className="visually-hidden">Download {item.name}</span>
                  </a>
                  <IconButton size="sm" label={`Copy URL of ${item.name}`} icon={<Link2 size={14} aria-hidden="true" />} onClick={() => onCopyUrl(path)} />
                  <IconButton
                    size="sm"
                    label={`Move ${item.name}`}
                    icon={<MoveRight size={14} aria-hidden="true" />}
                    onClick={() => onMove(path)}
                    disabled={!canWrite}
                    disabledReason={STORAGE_TEXTS.objectWritePermission}
                  />
                  <IconButton
                    size="sm"
                    label={`Delete ${item.name}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    onClick={() => onDelete(path)}
                    disabled={!canWrite}
                    disabledReason={STORAGE_TEXTS.objectWritePermission}
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
