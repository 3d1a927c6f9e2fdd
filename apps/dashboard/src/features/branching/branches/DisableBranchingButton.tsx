import { useState } from 'react'
import { Alert } from '../../../components/ui/Alert'
import { Button } from '../../../components/ui/Button'
import { useToast } from '../../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../../data/api'
import { useDisableBranching } from '../../../data/branches/useDisableBranching'

/** Turning branching off deletes every preview branch: the project's ref must be typed. */
export function DisableBranchingButton({ projectRef, previewCount, canManage }: { projectRef: string; previewCount: number; canManage: boolean }) {
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const disable = useDisableBranching()
  const confirm = () =>
    disable.mutate(
      { projectRef },
      {
        onSuccess: () => {
          toast.success('Branching disabled')
          setOpen(false)
        },
        onError: (error) => toast.error(`Failed to disable branching: ${errorMessage(error)}`),
      },
    )
  return (
    <>
      <Button disabled={!canManage} disabledReason="You need additional permissions to disable branching" onClick={() => setOpen(true)}>
        Disable branching
      </Button>
      <TypedConfirmationDialog
        open={open}
        onOpenChange={setOpen}
        title="Disable branching"
        confirmString={projectRef}
        confirmButton="Disable branching"
        loading={disable.isPending}
        onConfirm={confirm}
      >
        <Alert tone="danger" title="Every preview branch is deleted" live={false}>
          {previewCount === 1 ? 'The one preview branch of this project' : `The ${previewCount} preview branches of this project`} and their data are removed.
          Production keeps its data.
        </Alert>
      </TypedConfirmationDialog>
    </>
  )
}
