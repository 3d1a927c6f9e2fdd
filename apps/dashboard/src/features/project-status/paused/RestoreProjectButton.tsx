import type { Organization, Project } from '@stratum/contracts'
import { Play } from 'lucide-react'
import { useState } from 'react'
import { Button, type ButtonProps } from '../../../components/ui/Button'
import { useToast } from '../../../components/ui/Toast'
import { useMembersAtFreeProjectLimit } from '../../../data/lifecycle/useMembersAtFreeProjectLimit'
import { useCan } from '../../../data/profile/useCan'
import { FreeProjectLimitDialog } from './FreeProjectLimitDialog'
import { RestoreProjectDialog } from './RestoreProjectDialog'

export const RESUME_PERMISSION = 'You need additional permissions to resume this project'
export const RESTORE_PERMISSION_DENIED = 'You do not have the required permissions to restore this project'
export const RESTORE_EXPIRED = 'This project was paused too long ago to be restored from the dashboard'

interface RestoreProjectButtonProps extends Pick<ButtonProps, 'size'> {
  project: Project
  organization: Organization | undefined
  /** From the pause status: false once a free project has been paused too long. */
  canRestore: boolean
}

/**
 * 'Restore project': checks the permission, then (free plan) whether members are at their free
 * project limit, then asks for confirmation with an optional Postgres version.
 */
export function RestoreProjectButton({ project, organization, canRestore, size = 'md' }: RestoreProjectButtonProps) {
  const toast = useToast()
  const permitted = useCan(project.organization_slug, 'infrastructure.execute')
  const free = organization?.plan !== 'pro'
  const limit = useMembersAtFreeProjectLimit(project.organization_slug, false)
  const [dialog, setDialog] = useState<'confirm' | 'limit' | null>(null)
  const [checking, setChecking] = useState(false)

  const start = async () => {
    if (free) {
      setChecking(true)
      // Fresh at the moment of the click; a failed check leaves the decision to the server.
      const { data } = await limit.refetch()
      setChecking(false)
      if (data && data.length > 0) return setDialog('limit')
    }
    setDialog('confirm')
  }

  const reason = !permitted ? RESUME_PERMISSION : !canRestore ? RESTORE_EXPIRED : undefined
  return (
    <>
      <Button
        variant="primary"
        size={size}
        icon={<Play size={14} aria-hidden="true" />}
        disabled={Boolean(reason)}
        disabledReason={reason}
        onDisabledClick={() => (!permitted ? toast.error(RESTORE_PERMISSION_DENIED) : undefined)}
        loading={checking}
        onClick={() => void start()}
      >
        Restore project
      </Button>
      <RestoreProjectDialog project={project} open={dialog === 'confirm'} onOpenChange={(open) => setDialog(open ? 'confirm' : null)} />
      <FreeProjectLimitDialog
        orgSlug={project.organization_slug}
        members={limit.data ?? []}
        open={dialog === 'limit'}
        onOpenChange={(open) => setDialog(open ? 'limit' : null)}
      />
    </>
  )
}
