import type { AddedMember } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'

interface OneTimePasswordDialogProps {
  added: AddedMember | null
  onClose: () => void
}

/**
 * Stratum sends no mail: a new account's one-time password is shown here, once, for the
 * inviter to hand over by other means.
 */
export function OneTimePasswordDialog({ added, onClose }: OneTimePasswordDialogProps) {
  return (
    <Dialog
      open={added !== null && added.one_time_password !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      dismissOnOutsideClick={false}
      title="Member added"
      description={
        added ? (
          <>
            An account was created for <strong>{added.member.primary_email}</strong>. Give them this one-time password
            through a channel you trust: they sign in with it and must choose a new password straight away.
          </>
        ) : null
      }
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {added?.one_time_password ? (
        <>
          <CopyField label="One-time password" value={added.one_time_password} />
          <Alert tone="warning">You will not be able to see this password again.</Alert>
        </>
      ) : null}
    </Dialog>
  )
}
