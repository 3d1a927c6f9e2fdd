import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextAreaField, TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'
import type { VaultSecret, VaultSecretInput } from '../../data/vault/vaultSql'

interface SecretDialogProps {
  open: boolean
  /** The secret to edit; absent: a new one. */
  secret: VaultSecret | null
  onClose: () => void
  onSave: (input: VaultSecretInput) => void
  pending: boolean
  error: unknown
}

/** Add a secret, or edit one's name, description and (when a new one is typed) value. */
export function SecretDialog({ open, secret, onClose, onSave, pending, error }: SecretDialogProps) {
  const formId = useId()
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={secret ? `Edit secret ${secret.name ?? ''}` : 'Add new secret'}
      description={secret ? undefined : 'Stored encrypted in vault.secrets; SQL reads it through vault.decrypted_secrets.'}
      size="sm"
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={pending}>
            {secret ? 'Update secret' : 'Add secret'}
          </Button>
        </>
      }
    >
      {/* Keyed: the form starts afresh each time the dialog opens. */}
      {open ? <SecretForm key={secret?.id ?? 'new'} formId={formId} secret={secret} onSave={onSave} error={error} /> : null}
    </Dialog>
  )
}

interface SecretFormProps {
  formId: string
  secret: VaultSecret | null
  onSave: (input: VaultSecretInput) => void
  error: unknown
}

function SecretForm({ formId, secret, onSave, error }: SecretFormProps) {
  const [name, setName] = useState(secret?.name ?? '')
  const [description, setDescription] = useState(secret?.description ?? '')
  const [value, setValue] = useState('')
  const [invalid, setInvalid] = useState<{ name?: string; value?: string }>({})

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problems = {
      name: name.trim() ? undefined : 'Enter a name for the secret',
      value: secret || value ? undefined : 'Enter the secret value',
    }
    setInvalid(problems)
    if (problems.name || problems.value) return
    // On an edit, an empty value keeps the stored one.
    onSave({ name: name.trim(), description, ...(secret && !value ? {} : { secret: value }) })
  }

  return (
    <form id={formId} className="stack" onSubmit={submit} noValidate>
      <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} error={invalid.name} autoComplete="off" spellCheck={false} autoFocus />
      <TextField label="Description" labelAside={<span className="muted vault-optional">Optional</span>} value={description} onChange={(event) => setDescription(event.target.value)} autoComplete="off" />
      <TextAreaField
        label={secret ? 'New secret value' : 'Secret value'}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={invalid.value}
        hint={secret ? 'Leave empty to keep the current value.' : undefined}
        className="mono"
        rows={3}
        autoComplete="off"
        spellCheck={false}
      />
      {error ? <Alert tone="danger">{errorMessage(error)}</Alert> : null}
    </form>
  )
}
