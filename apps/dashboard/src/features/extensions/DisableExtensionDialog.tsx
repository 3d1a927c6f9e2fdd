import type { Extension } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { errorMessage } from '../../data/api'
import { Checkbox } from '../../components/ui/Checkbox'

interface DisableExtensionDialogProps {
  /** The extension to disable; the dialog is open while it is set. */
  extension: Extension | null
  onClose: () => void
  onDisable: (cascade: boolean) => void
  pending: boolean
  error: unknown
}

/** Confirms DROP EXTENSION: its functions, types and operators go, and with cascade what depends on them. */
export function DisableExtensionDialog({ extension, onClose, onDisable, pending, error }: DisableExtensionDialogProps) {
  const [cascade, setCascade] = useState(false)
  const close = () => {
    setCascade(false)
    onClose()
  }
  return (
    <Dialog
      open={extension !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Disable ${extension?.name ?? ''}`}
      size="sm"
      footer={
        <>
          <Button onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button variant="danger" loading={pending} onClick={() => onDisable(cascade)}>
            Disable extension
          </Button>
        </>
      }
    >
      {extension ? (
        <div className="stack">
          <Alert tone="warning" live={false}>
            Disabling <strong className="mono">{extension.name}</strong> removes its functions, types and operators from schema{' '}
            <strong className="mono">{extension.schema}</strong>. Are you sure you want to turn it off?
          </Alert>
          <Checkbox
            label="Also drop the objects that depend on it"
            hint="Columns, indexes and functions that use it are dropped with it (CASCADE)."
            checked={cascade}
            onCheckedChange={setCascade}
          />
          {error ? <Alert tone="danger">{errorMessage(error)}</Alert> : null}
        </div>
      ) : null}
    </Dialog>
  )
}
