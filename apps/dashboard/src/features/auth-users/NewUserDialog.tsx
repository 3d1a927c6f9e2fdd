import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateAuthUser, useInviteAuthUser } from '../../data/project-auth/useAuthUserMutations'
import { Checkbox } from '../../components/ui/Checkbox'

export type NewUserMode = 'create' | 'invite'

interface NewUserDialogProps {
  mode: NewUserMode | null
  onClose: () => void
  projectRef: string
}

/**
 * 'Create user' (email and password, confirmed at once, or left to confirm) and 'Invite user' (an
 * email with a link to accept): both through the project's auth service.
 */
export function NewUserDialog({ mode, onClose, projectRef }: NewUserDialogProps) {
  const formId = useId()
  const toast = useToast()
  const create = useCreateAuthUser()
  const invite = useInviteAuthUser()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [autoConfirm, setAutoConfirm] = useState(true)
  const mutation = mode === 'invite' ? invite : create
  const pending = mutation.isPending

  const close = () => {
    setEmail('')
    setPassword('')
    create.reset()
    invite.reset()
    onClose()
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (mode === 'invite') {
      invite.mutate(
        { ref: projectRef, email: address },
        {
          onSuccess: () => {
            toast.success(`Sent an invitation to ${address}`)
            close()
          },
        },
      )
    } else {
      create.mutate(
        { ref: projectRef, body: { email: address, ...(password ? { password } : {}), email_confirm: autoConfirm } },
        {
          onSuccess: () => {
            toast.success(`Created user ${address}`)
            close()
          },
        },
      )
    }
  }

  return (
    <Dialog
      open={mode !== null}
      onOpenChange={(open) => (open || pending ? undefined : close())}
      title={mode === 'invite' ? 'Invite user' : 'Create user'}
      description={mode === 'invite' ? 'The user gets an email with a link to accept the invitation and set a password.' : undefined}
      footer={
        <>
          <Button onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={pending}>
            {mode === 'invite' ? 'Send invitation' : 'Create user'}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        <TextField label="Email address" type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus autoComplete="off" placeholder="user@example.com" />
        {mode === 'create' ? (
          <>
            <TextField
              label="User password"
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
              hint="Optional: without one the user signs in by magic link or code."
            />
            <Checkbox label="Auto confirm user" checked={autoConfirm} onCheckedChange={setAutoConfirm} />
          </>
        ) : null}
        {mutation.isError ? <Alert tone="danger">{errorMessage(mutation.error)}</Alert> : null}
      </form>
    </Dialog>
  )
}
