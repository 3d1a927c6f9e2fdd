import type { Bucket } from '@stratum/contracts'
import { Download, FolderArchive, Plus } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useBuckets } from '../../data/storage/useBuckets'
import { useDeleteBucket } from '../../data/storage/useDeleteBucket'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { BucketFormDialog } from './BucketFormDialog'
import { BucketsTable } from './BucketsTable'
import { STORAGE_TEXTS } from './texts'
import { useArchiveDownload } from './useArchiveDownload'
import './storage.css'

type Editing = { mode: 'create' } | { mode: 'edit'; bucket: Bucket } | null

/** /project/{ref}/storage: buckets (records and settings) and the storage archive download. */
export function StoragePage() {
  useProjectPageTitle('Storage')
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const buckets = useBuckets(ref)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const archive = useArchiveDownload(ref)
  const remove = useDeleteBucket()
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<Bucket | null>(null)
  const list = buckets.data ?? []

  const createButton = (
    <Button
      variant="primary"
      icon={<Plus size={14} aria-hidden="true" />}
      onClick={() => setEditing({ mode: 'create' })}
      disabled={!canWrite}
      disabledReason={STORAGE_TEXTS.writePermission}
    >
      New bucket
    </Button>
  )

  return (
    <div className="page">
      <PageHeader
        title="Storage"
        description="Buckets for files kept next to your database, each public or private, with optional MIME type and size limits. Open a bucket to browse, upload and download its files."
        actions={
          <>
            <Button icon={<Download size={14} aria-hidden="true" />} loading={archive.busy} onClick={archive.start}>
              {archive.busy ? 'Preparing archive…' : 'Download archive'}
            </Button>
            {createButton}
          </>
        }
      />
      <div className="stack">
        <QueryState
          query={buckets}
          loadingLabel="Loading buckets…"
          errorTitle="Could not load the buckets"
          isEmpty={list.length === 0}
          empty={
            <Card>
              <EmptyState
                icon={<FolderArchive size={22} />}
                title="No buckets yet"
                description="A bucket groups files under one set of rules: who may read them, which types and how large."
                action={createButton}
              />
            </Card>
          }
        >
          <BucketsTable
            buckets={list}
            canWrite={canWrite}
            onEdit={(bucket) => setEditing({ mode: 'edit', bucket })}
            onDelete={(bucket) => {
              remove.reset()
              setDeleting(bucket)
            }}
          />
        </QueryState>
      </div>
      <BucketFormDialog
        open={editing !== null}
        onOpenChange={(open) => (open ? undefined : setEditing(null))}
        projectRef={ref}
        bucket={editing?.mode === 'edit' ? editing.bucket : undefined}
      />
      <TypedConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete bucket ${deleting?.name ?? ''}`}
        confirmString={deleting?.name ?? ''}
        confirmButton="Delete bucket"
        loading={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          const name = deleting.name
          remove.mutate(
            { ref, id: deleting.id },
            {
              onSuccess: () => {
                toast.success(`Deleted bucket ${name}`)
                setDeleting(null)
              },
            },
          )
        }}
      >
        <Alert tone="danger" title="This action cannot be undone" live={false}>
          The bucket <strong className="mono">{deleting?.name}</strong> and every file in it are removed.
        </Alert>
        {remove.isError ? <Alert tone="danger">{errorMessage(remove.error)}</Alert> : null}
      </TypedConfirmationDialog>
    </div>
  )
}
