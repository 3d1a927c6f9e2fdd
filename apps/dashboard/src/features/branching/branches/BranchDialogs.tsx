import type { Branch } from '@stratum/contracts'
import { Alert } from '../../../components/ui/Alert'
import { Button } from '../../../components/ui/Button'
import { Dialog } from '../../../components/ui/Dialog'
import { LoadingState } from '../../../components/ui/Spinner'
import { TypedConfirmationDialog } from '../../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../../data/api'
import { useBranchDiff } from '../../../data/branches/useBranchDiff'

interface ConfirmProps {
  branch: Branch
  parentName: string
  open: boolean
  onOpenChange: (open: boolean) => void
  busy: boolean
  onConfirm: () => void
}

/** Reset: the branch goes back to its parent's current state; its own changes are lost. */
export function ResetBranchDialog({ branch, parentName, open, onOpenChange, busy, onConfirm }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
      title={`Reset branch ${branch.name}`}
      size="sm"
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            Reset branch
          </Button>
        </>
      }
    >
      <p>
        The branch is copied again from <strong>{parentName}</strong> as it is now
        {branch.with_data ? ', schema and data' : ', schema only'}. Every change made on the branch since it was created is lost.
      </p>
    </Dialog>
  )
}

/** Merge: the branch's migrations are applied to its parent (production). */
export function MergeBranchDialog({ branch, parentName, open, onOpenChange, busy, onConfirm }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
      title={`Merge ${branch.name} into ${parentName}`}
      size="sm"
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" loading={busy} onClick={onConfirm}>
            Merge into production
          </Button>
        </>
      }
    >
      <p>
        The migrations of <strong>{branch.name}</strong> that production does not have yet are applied to <strong>{parentName}</strong>, in order. Data
        changes made on the branch are not copied.
      </p>
    </Dialog>
  )
}

/** Delete: the branch's project and its data are removed; the branch's name must be typed. */
export function DeleteBranchDialog({ branch, open, onOpenChange, busy, onConfirm }: Omit<ConfirmProps, 'parentName'>) {
  return (
    <TypedConfirmationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete branch ${branch.name}`}
      confirmString={branch.name}
      confirmButton="Delete branch"
      loading={busy}
      onConfirm={onConfirm}
    >
      <Alert tone="danger" title="This action cannot be undone" live={false}>
        The preview branch <strong>{branch.name}</strong>, its database and its data are removed permanently. Production is not touched.
      </Alert>
    </TypedConfirmationDialog>
  )
}

/** The SQL that brings the parent to the branch's schema, read when the dialog opens. */
export function BranchDiffDialog({ branch, open, onOpenChange }: { branch: Branch; open: boolean; onOpenChange: (open: boolean) => void }) {
  const diff = useBranchDiff(open ? branch.id : undefined)
  let body
  if (diff.isPending) body = <LoadingState label="Comparing schemas…" />
  else if (diff.isError) body = <Alert tone="danger" title="Failed to compare the branch with production">{errorMessage(diff.error)}</Alert>
  else if (diff.data.trim() === '') body = <p className="muted">No schema differences: the branch's schema is the same as production's.</p>
  else
    body = (
      <pre className="branch-diff" aria-label={`Schema changes of ${branch.name}`}>
        <code>{diff.data}</code>
      </pre>
    )
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Changes in ${branch.name}`} description="The SQL that would bring production to this branch's schema.">
      {body}
    </Dialog>
  )
}
