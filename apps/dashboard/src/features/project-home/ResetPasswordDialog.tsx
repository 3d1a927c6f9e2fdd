import { UpdateDatabasePasswordBody, type Project } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { errorMessage } from '../../data/api'
import { useResetDatabasePassword } from '../../data/projects/useResetDatabasePassword'
import { DatabasePasswordField, generatePassword } from '../projects'

/** Mounted only while open: each opening starts from a freshly generated password. */
export function ResetPasswordDialog({ project, onClose }: { project: Project; onClose: () => void }) {
  const reset = useResetDatabasePassword()
  const [password, setPassword] = useState(generatePassword)
  const [invalid, setInvalid] = useState<string>()
  const done = reset.isSuccess

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = UpdateDatabasePasswordBody.safeParse({ password })
    if (!checked.success) {
      setInvalid(checked.error.issues[0]?.message ?? 'Invalid password')
      return
    }
    setInvalid(undefined)
    reset.mutate({ ref: project.ref, password })
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => (next ? null : onClose())}
      title={done ? 'Database password updated' : 'Reset database password'}
      description={
        done
          ? 'Copy the new password now: Stratum does not show it again.'
          : `Sets a new password for the postgres role of ${project.name}. Connections that are open stay open; new ones need the new password.`
      }
      // The new password is on screen: a stray click outside must not lose it.
      dismissOnOutsideClick={!done}
      footer={
        done ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={onClose} disabled={reset.isPending}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" form="reset-db-password" loading={reset.isPending}>
              Reset password
            </Button>
          </>
        )
      }
    >
      {done ? (
        <CopyField label="New database password" value={password} />
      ) : (
        <form id="reset-db-password" className="stack-sm" onSubmit={submit} noValidate>
          <DatabasePasswordField
            value={password}
            onChange={(value) => {
              setPassword(value)
              setInvalid(undefined)
            }}
            error={invalid}
            hint="At least 8 characters. A strong one is generated for you; you will see it once more after the reset."
          />
          {reset.isError ? (
            <Alert tone="danger" title="Failed to reset the database password">
              {errorMessage(reset.error)}
            </Alert>
          ) : null}
        </form>
      )}
    </Dialog>
  )
}
