import { DATABASE_ACCESS_TEXTS, UpdateDatabasePasswordBody, type Project } from '@stratum/contracts'
import { KeyRound } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useResetDatabasePassword } from '../../data/projects/useResetDatabasePassword'
import { DatabasePasswordField, generatePassword } from '../projects'

const RUNNING: Project['status'][] = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY']

/**
 * The database password is never shown after creation: owners and administrators
 * (projects.update) set a new one here. The new password is shown once, to copy.
 */
export function ResetDatabasePassword({ project }: { project: Project }) {
  const allowed = useCan(project.organization_slug, 'projects.update')
  const [open, setOpen] = useState(false)
  const blocked = !allowed
    ? DATABASE_ACCESS_TEXTS.resetPasswordDenied
    : RUNNING.includes(project.status)
      ? undefined
      : 'The project must be running to reset its database password'

  return (
    <div className="password-reset-row">
      <div className="password-reset-text">
        <h3>Database password</h3>
        <p className="muted">
          Stratum does not keep the password of the <code>postgres</code> role and never shows it. If it is lost, set a new
          one: clients using the old one are refused at their next connection.
        </p>
      </div>
      <Button
        icon={<KeyRound size={14} aria-hidden="true" />}
        disabled={Boolean(blocked)}
        disabledReason={blocked}
        onClick={() => setOpen(true)}
      >
        Reset database password
      </Button>
      {open ? <ResetPasswordDialog project={project} onClose={() => setOpen(false)} /> : null}
    </div>
  )
}

/** Mounted only while open: each opening starts from a freshly generated password. */
function ResetPasswordDialog({ project, onClose }: { project: Project; onClose: () => void }) {
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
