import { Download, Link2, X } from 'lucide-react'
import { useQuery } from '@tanstack/react-query'
import { Button, IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Spinner } from '../../components/ui/Spinner'
import { objectDownloadUrl, type StorageItem } from '../../data/storage/objects'
import { formatBytes, formatDateTime } from '../../lib/format'
import { previewKind } from './objectPaths'

/** The first bytes of a text object that a preview shows. */
const TEXT_PREVIEW_BYTES = 100 * 1024

interface ObjectPreviewProps {
  projectRef: string
  bucket: string
  path: string
  item: StorageItem
  onCopyUrl: () => void
  onClose: () => void
}

/** The side panel of a selected file: an image or the start of a text, its details, download and URL. */
export function ObjectPreview({ projectRef, bucket, path, item, onCopyUrl, onClose }: ObjectPreviewProps) {
  const kind = previewKind(item.metadata?.mimetype)
  const url = objectDownloadUrl(projectRef, bucket, path)
  return (
    <Card className="storage-preview" aria-label={`Preview of ${item.name}`}>
      <div className="storage-preview-head">
        <strong className="mono storage-preview-name">{item.name}</strong>
        <IconButton size="sm" label="Close preview" icon={<X size={14} aria-hidden="true" />} onClick={onClose} />
      </div>
      <div className="storage-preview-body">
        {kind === 'image' ? <img src={url} alt={item.name} className="storage-preview-image" /> : null}
        {kind === 'text' ? <TextPreview url={url} /> : null}
        {kind === 'none' ? <p className="muted">No preview for this type of file.</p> : null}
      </div>
      <dl className="storage-preview-facts">
        <dt>Type</dt>
        <dd className="mono">{item.metadata?.mimetype ?? 'unknown'}</dd>
        <dt>Size</dt>
        <dd>{formatBytes(item.metadata?.size ?? 0)}</dd>
        <dt>Updated</dt>
        <dd>{item.updated_at ? formatDateTime(item.updated_at) : '—'}</dd>
      </dl>
      <div className="storage-preview-actions">
        <a className="btn btn-secondary btn-sm" href={objectDownloadUrl(projectRef, bucket, path, true)} download={item.name}>
          <Download size={14} aria-hidden="true" /> Download
        </a>
        <Button size="sm" icon={<Link2 size={14} aria-hidden="true" />} onClick={onCopyUrl}>
          Copy URL
        </Button>
      </div>
    </Card>
  )
}

function TextPreview({ url }: { url: string }) {
  const text = useQuery({
    queryKey: ['storage-preview', url],
    queryFn: async ({ signal }) => {
      const response = await fetch(url, {
        headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
        credentials: 'same-origin',
        signal,
      })
      if (!response.ok) throw new Error(`The file could not be read (status ${response.status})`)
      return response.text()
    },
    retry: false,
  })
  if (text.isError) return <p className="muted">{text.error.message}</p>
  if (text.isPending)
    return (
      <span className="muted">
        <Spinner /> Loading preview…
      </span>
    )
  return <pre className="storage-preview-text">{text.data}</pre>
}
