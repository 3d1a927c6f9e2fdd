import type { CreatedAccessToken } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import { useCreateAccessToken } from '../../data/access-tokens/useCreateAccessToken'

interface CreateTokenDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Asks for a name, then shows the new token once. */
export function CreateTokenDialog({ open, onOpenChange }: CreateTokenDialogProps) {
  const create = useCreateAccessToken()
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string>()
  const [created, setCreated] = useState<CreatedAccessToken | null>(null)

  const close = () => {
    onOpenChange(false)
    // Forget the secret as soon as the dialog closes.
    setCreated(null)
    setName('')
    setNameError(undefined)
    create.reset()
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!name.trim()) {
      setNameError('Name cannot be empty')
      return
    }
    setNameError(undefined)
    create.mutate({ name: name.trim() }, { onSuccess: setCreated })
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? undefined : close())}
        dismissOnOutsideClick={false}
        title="Token generated"
        description={`Copy the token "${created.name}" now and store it somewhere safe.`}
        footer={
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        }
      >
        <CopyField label="Access token" value={created.token} />
        <Alert tone="warning">You will not be able to see this token again.</Alert>
      </Dialog>
    )
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Generate new token"
      description="Name it after where it will be used, so you know what breaks if you revoke it."
    >
      <form className="stack" onSubmit={onSubmit} noValidate>
        <TextField
          label="Name"
          name="name"
          placeholder="e.g. CI deploys"
          maxLength={100}
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
        {create.isError ? (
          <Alert tone="danger" title="Could not generate the token">
            {errorMessage(create.error)}
          </Alert>
        ) : null}
        <div className="form-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" loading={create.isPending}>
            Generate token
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
