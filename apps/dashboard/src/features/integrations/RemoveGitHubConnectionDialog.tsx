import type { GitHubConnection } from '@stratum/contracts'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useDeleteGitHubConnectionMutation } from '../../data/github'

interface RemoveGitHubConnectionDialogProps {
  connection: GitHubConnection | null
  onClose: () => void
}

export function RemoveGitHubConnectionDialog({ connection, onClose }: RemoveGitHubConnectionDialogProps) {
  const toast = useToast()
  const remove = useDeleteGitHubConnectionMutation()

  const confirm = () => {
    if (!connection) return
    remove.mutate(
      { connectionId: connection.id, organizationId: connection.organization_id },
      {
        onSuccess: () => {
          toast.success(`Removed the connection to ${connection.repository.name}`)
          onClose()
        },
        onError: (failure) => toast.error('Failed to remove the connection', errorMessage(failure)),
      },
    )
  }

  return (
    <Dialog
      open={connection !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      size="sm"
      title="Remove GitHub connection"
      description={
        connection ? (
          <>
            <strong>{connection.project.name}</strong> is no longer linked to <strong>{connection.repository.name}</strong>, and its token
            is deleted. Existing branches are kept; new ones can no longer be made from a Git branch.
          </>
        ) : null
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" loading={remove.isPending} onClick={confirm}>
            Remove connection
          </Button>
        </>
      }
    />
  )
}
