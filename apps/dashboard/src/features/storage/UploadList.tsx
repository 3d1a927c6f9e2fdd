import { CheckCircle2, CircleAlert } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { formatBytes } from '../../lib/format'
import type { UploadState } from './useUploads'

/** Progress of the files being uploaded, and what became of the finished ones. */
export function UploadList({ uploads, onClear }: { uploads: UploadState[]; onClear: () => void }) {
  if (uploads.length === 0) return null
  const busy = uploads.some((upload) => upload.status === 'uploading')
  return (
    <Card>
      <div className="storage-uploads-head">
        <strong>{busy ? 'Uploading…' : 'Uploads finished'}</strong>
        {!busy ? (
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear
          </Button>
        ) : null}
      </div>
      <ul className="storage-uploads" aria-label="Uploads">
        {uploads.map((upload) => {
          const percent = upload.total ? Math.round((upload.loaded / upload.total) * 100) : 100
          return (
            <li key={upload.id} className="storage-upload">
              <span className="storage-upload-name mono">{upload.name}</span>
              {upload.status === 'uploading' ? (
                <progress max={100} value={percent} aria-label={`Uploading ${upload.name}`}>
                  {percent}%
                </progress>
              ) : upload.status === 'done' ? (
                <span className="storage-upload-status ok">
                  <CheckCircle2 size={14} aria-hidden="true" /> Uploaded ({formatBytes(upload.total)})
                </span>
              ) : (
                <span className="storage-upload-status failed" role="alert">
                  <CircleAlert size={14} aria-hidden="true" /> {upload.error}
                </span>
              )}
            </li>
          )
        })}
      </ul>
    </Card>
  )
}
