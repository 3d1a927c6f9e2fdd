import { ArrowLeft, FolderPlus, RefreshCw, Upload } from 'lucide-react'
import { useRef, useState, type DragEvent } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useCopyToClipboard } from '../../components/ui/useCopyToClipboard'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { publicObjectUrl, signObjectUrl, useBucketObjects, type StorageItem } from '../../data/storage/objects'
import { useBuckets } from '../../data/storage/useBuckets'
import { formatBytes } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DeleteObjectDialog, MoveObjectDialog, NewFolderDialog } from './ObjectDialogs'
import { ObjectPreview } from './ObjectPreview'
import { ObjectsTable } from './ObjectsTable'
import { crumbsOf, joinPath, visibleItems } from './objectPaths'
import { STORAGE_TEXTS } from './texts'
import { UploadList } from './UploadList'
import { useUploads } from './useUploads'
import './storage.css'

type Dialog = { kind: 'folder' } | { kind: 'move'; path: string } | { kind: 'delete'; path: string } | null

/** /project/{ref}/storage/buckets/{bucket}?path=a/b: one folder of a bucket, its files, uploads and previews. */
export function BucketExplorerPage() {
  const { bucketId = '' } = useParams()
  useProjectPageTitle(`Storage: ${bucketId}`)
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const [search, setSearch] = useSearchParams()
  const folder = search.get('path') ?? ''
  const buckets = useBuckets(ref)
  const bucket = buckets.data?.find((entry) => entry.id === bucketId)
  const settings = useProjectSettings(ref)
  const objects = useBucketObjects(ref, bucketId, folder)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const uploads = useUploads(ref, bucketId)
  const { copy } = useCopyToClipboard()
  const fileInput = useRef<HTMLInputElement>(null)
  const [selected, setSelected] = useState<{
    path: string
    item: StorageItem
  } | null>(null)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [dragging, setDragging] = useState(false)
  const items = visibleItems(objects.data ?? [])

  const openFolder = (path: string) => {
    setSelected(null)
    setSearch(path ? { path } : {})
  }

  const copyUrl = async (path: string) => {
    if (!ref || !settings.data) return
    try {
      const apiUrl = projectApiUrl(settings.data)
      const url = bucket?.public ? publicObjectUrl(apiUrl, bucketId, path) : await signObjectUrl(ref, apiUrl, bucketId, path, STORAGE_TEXTS.signedUrlSeconds)
      if (await copy(url)) toast.success(bucket?.public ? 'Public URL copied' : 'Signed URL copied', bucket?.public ? undefined : 'It works for one hour.')
    } catch (error) {
      toast.error('Could not create a URL', errorMessage(error))
    }
  }

  const startUploads = (files: FileList | null) => {
    if (!files?.length) return
    void uploads.start([...files], folder)
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    if (canWrite) startUploads(event.dataTransfer.files)
  }

  const uploadButton = (
    <Button
      variant="primary"
      icon={<Upload size={14} aria-hidden="true" />}
      onClick={() => fileInput.current?.click()}
      disabled={!canWrite}
      disabledReason={STORAGE_TEXTS.objectWritePermission}
    >
      Upload files
    </Button>
  )

  return (
    <div className="page">
      <PageHeader
        eyebrow={
          <Link to=".." relative="path" className="storage-back">
            <ArrowLeft size={13} aria-hidden="true" /> All buckets
          </Link>
        }
        title={<span className="mono">{bucketId}</span>}
        description={
          bucket ? (
            <span className="storage-bucket-facts">
              {bucket.public ? <Badge tone="warning">Public</Badge> : <Badge tone="neutral">Private</Badge>}
              <span>{bucket.file_size_limit === null ? 'No file size limit' : `Files up to ${formatBytes(bucket.file_size_limit)}`}</span>
              <span>{bucket.allowed_mime_types === null ? 'Any file type' : `Types: ${bucket.allowed_mime_types.join(', ') || 'none'}`}</span>
            </span>
          ) : undefined
        }
        actions={
          <>
            <Button icon={<RefreshCw size={14} aria-hidden="true" />} onClick={() => void objects.refetch()} loading={objects.isFetching}>
              Refresh
            </Button>
            <Button
              icon={<FolderPlus size={14} aria-hidden="true" />}
              onClick={() => setDialog({ kind: 'folder' })}
              disabled={!canWrite}
              disabledReason={STORAGE_TEXTS.objectWritePermission}
            >
              New folder
            </Button>
            {uploadButton}
          </>
        }
      />
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Files to upload"
        onChange={(event) => {
          startUploads(event.target.files)
          event.target.value = ''
        }}
      />
      <nav className="storage-crumbs" aria-label="Folder">
        <button type="button" onClick={() => openFolder('')} aria-current={folder === '' ? 'page' : undefined}>
          {bucketId}
        </button>
        {crumbsOf(folder).map((crumb) => (
          <span key={crumb.path}>
            <span aria-hidden="true" className="muted">
              /
            </span>
            <button type="button" onClick={() => openFolder(crumb.path)} aria-current={crumb.path === folder ? 'page' : undefined}>
              {crumb.name}
            </button>
          </span>
        ))}
      </nav>
      <div className="stack">
        <UploadList uploads={uploads.uploads} onClear={uploads.clearFinished} />
        <div
          className={['storage-explorer', selected ? 'has-preview' : null, dragging ? 'is-dragging' : null].filter(Boolean).join(' ')}
          onDragOver={(event) => {
            event.preventDefault()
            if (canWrite) setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <QueryState
            query={objects}
            loadingLabel="Loading files…"
            errorTitle="Could not load the files"
            isEmpty={items.length === 0}
            empty={
              <Card>
                <EmptyState
                  icon={<Upload size={22} />}
                  title={folder ? 'This folder is empty' : 'This bucket is empty'}
                  description="Upload files with the button or drop them here."
                  action={uploadButton}
                />
              </Card>
            }
          >
            <ObjectsTable
              projectRef={ref ?? ''}
              bucket={bucketId}
              folder={folder}
              items={items}
              selected={selected?.path ?? null}
              canWrite={canWrite}
              compact={selected !== null}
              onOpenFolder={openFolder}
              onSelect={(item) => setSelected({ path: joinPath(folder, item.name), item })}
              onCopyUrl={(path) => void copyUrl(path)}
              onMove={(path) => setDialog({ kind: 'move', path })}
              onDelete={(path) => setDialog({ kind: 'delete', path })}
            />
          </QueryState>
          {selected && ref ? (
            <ObjectPreview
              projectRef={ref}
              bucket={bucketId}
              path={selected.path}
              item={selected.item}
              onCopyUrl={() => void copyUrl(selected.path)}
              onClose={() => setSelected(null)}
            />
          ) : null}
        </div>
      </div>
      {ref && dialog?.kind === 'folder' ? (
        <NewFolderDialog projectRef={ref} bucket={bucketId} folder={folder} onClose={() => setDialog(null)} onCreated={openFolder} />
      ) : null}
      {ref && dialog?.kind === 'move' ? (
        <MoveObjectDialog projectRef={ref} bucket={bucketId} path={dialog.path} onClose={() => setDialog(null)} onMoved={() => setSelected(null)} />
      ) : null}
      {ref && dialog?.kind === 'delete' ? (
        <DeleteObjectDialog projectRef={ref} bucket={bucketId} path={dialog.path} onClose={() => setDialog(null)} onDeleted={() => setSelected(null)} />
      ) : null}
    </div>
  )
}
