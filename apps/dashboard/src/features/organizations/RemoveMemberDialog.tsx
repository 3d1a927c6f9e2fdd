import type { Member } from '@stratum/contracts'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Alert } from '../../components/ui/Alert'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useRemoveMember } from '../../data/members/useRemoveMember'

interface RemoveMemberDialogProps {
  slug: string
  member: Member | null
  onClose: () => void
}

export function RemoveMemberDialog({ slug, member, onClose }: RemoveMemberDialogProps) {
  const toast = useToast()
  const remove = useRemoveMember()

  const close = () => {
    remove.reset()
    onClose()
  }

  const confirm = () => {
    if (!member) return
    remove.mutate(
      { slug, userId: member.user_id },
      {
        onSuccess: () => {
          toast.success(`${member.primary_email} was removed from the organization`)
          close()
        },
      },
    )
  }

  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      size="sm"
      title="Remove member"
      description={
        member ? (
          <>
            <strong>{member.primary_email}</strong> loses access to this organization and all its projects. Their
            account itself is kept.
          </>
        ) : null
      }
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" loading={remove.isPending} onClick={confirm}>
            Remove member
          </Button>
        </>
      }
    >
      {remove.isError ? (
        <Alert tone="danger" title="Could not remove the member">
          {errorMessage(remove.error)}
        </Alert>
      ) : null}
    </Dialog>
  )
}
