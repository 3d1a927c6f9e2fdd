import { INVITATION_DAYS, INVITATION_TEXTS, ROLE_LABELS, type CreatedInvitation } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'

interface InvitationLinkDialogProps {
  created: CreatedInvitation | null
  onClose: () => void
}

/**
 * Stratum sends no mail: the invitation's one-time link is shown here, once, for the inviter to
 * hand over through a channel they trust. Only its hash is kept on the server.
 */
export function InvitationLinkDialog({ created, onClose }: InvitationLinkDialogProps) {
  return (
    <Dialog
      open={created !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      dismissOnOutsideClick={false}
      title="Invitation created"
      description={
        created ? (
          <>
            Give this link to <strong>{created.invitation.email}</strong> through a channel you trust. It lets them join
            as {ROLE_LABELS[created.invitation.role]}: someone new sets their own password on it, someone with an
            account signs in and accepts. It works once, for {INVITATION_DAYS} days.
          </>
        ) : null
      }
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {created ? (
        <>
          <CopyField label="Invitation link" value={created.invitation_url} />
          <Alert tone="warning">{INVITATION_TEXTS.linkShownOnce}</Alert>
        </>
      ) : null}
    </Dialog>
  )
}
