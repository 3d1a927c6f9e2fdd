import { PERMISSION_TEXTS, type Project } from '@stratum/contracts'
import { Eye, EyeOff, Lock } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useDatabasePassword } from '../../data/projects/useDatabasePassword'

/** Owners and administrators (service_api_keys.read) may see the database password on demand. */
export function RevealPassword({ project }: { project: Project }) {
  const allowed = useCan(project.organization_slug, 'service_api_keys.read')
  const [revealed, setRevealed] = useState(false)
  const password = useDatabasePassword(project.ref, allowed && revealed)

  if (!allowed) {
    return (
      <p className="reveal-denied muted">
        <Lock size={14} aria-hidden="true" />
        {PERMISSION_TEXTS.viewPassword}
      </p>
    )
  }

  return (
    <div className="stack-sm">
      <div className="row">
        <Button
          icon={revealed ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
          loading={revealed && password.isFetching}
          onClick={() => setRevealed((shown) => !shown)}
        >
          {revealed ? 'Hide password' : 'Reveal password'}
        </Button>
      </div>
      {revealed && password.data ? <CopyField label="Database password" value={password.data.db_pass} /> : null}
      {revealed && password.isError ? (
        <Alert tone="danger" title="Could not load the password">
          {errorMessage(password.error)}
        </Alert>
      ) : null}
    </div>
  )
}
