import type { AccessToken } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useRevokeAccessToken } from '../../data/access-tokens/useRevokeAccessToken'

interface RevokeTokenDialogProps {
  token: AccessToken | null
  onClose: () => void
}

export function RevokeTokenDialog({ token, onClose }: RevokeTokenDialogProps) {
  const toast = useToast()
  const revoke = useRevokeAccessToken()

  const close = () => {
    revoke.reset()
    onClose()
  }

  const confirm = () => {
    if (!token) return
    revoke.mutate(token.id, {
      onSuccess: () => {
        toast.success(`Token ${token.name} was revoked`)
        close()
      },
    })
  }

  return (
    <Dialog
      open={token !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      size="sm"
      title="Revoke token"
      description={token ? `Anything using "${token.name}" stops working at once. This cannot be undone.` : undefined}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" loading={revoke.isPending} onClick={confirm}>
            Revoke token
          </Button>
        </>
      }
    >
      {revoke.isError ? (
        <Alert tone="danger" title="Could not revoke the token">
          {errorMessage(revoke.error)}
        </Alert>
      ) : null}
    </Dialog>
  )
}
