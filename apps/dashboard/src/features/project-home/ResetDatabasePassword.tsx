import { DATABASE_ACCESS_TEXTS, type Project } from '@stratum/contracts'
import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { useCan } from '../../data/profile/useCan'
import { lazyComponent } from '../../lib/lazyComponent'

/** In its own chunk: it validates with the contract's zod schema, which the project home need not load. */
const ResetPasswordDialog = lazyComponent(() => import('./ResetPasswordDialog').then((module) => module.ResetPasswordDialog))

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
