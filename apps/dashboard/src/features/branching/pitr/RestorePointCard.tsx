import { GitBranchPlus, History } from 'lucide-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../../../components/ui/Alert'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { useToast } from '../../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../../components/ui/TypedConfirmationDialog'
import { useRestorePitr } from '../../../data/addons/useRestorePitr'
import { errorMessage } from '../../../data/api'
import { useBranches } from '../../../data/branches/useBranches'
import { useCan } from '../../../data/profile/useCan'
import { useCurrentProject } from '../../../data/projects/useCurrentProject'
import { formatTimestamp } from '../../../lib/format'
import { CreateBranchDialog } from '../branches/CreateBranchDialog'
import { PointInTimeField } from '../PointInTimeField'
import { fromUtcInputValue, pointInTimeError, toUtcInputValue, unixToIso } from '../pointInTime'

export const RESTORE_NEEDS_PERMISSION = 'You need additional permissions to restore this project'
export const BRANCHING_NOT_ENABLED = 'Enable branching on the Branches page to make branches'

/** Choose a moment inside the window; restore the project to it, or make a preview branch of it. */
export function RestorePointCard({ projectRef, bounds }: { projectRef: string; bounds: { earliest: number; latest: number } }) {
  const toast = useToast()
  const navigate = useNavigate()
  const { project } = useCurrentProject()
  const canRestore = useCan(project?.organization_slug, 'infrastructure.execute')
  const branches = useBranches(projectRef)
  const branchingEnabled = branches.data?.some((branch) => branch.is_default) ?? false
  const restore = useRestorePitr()
  const [moment, setMoment] = useState(toUtcInputValue(bounds.latest))
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [branchOpen, setBranchOpen] = useState(false)
  const error = pointInTimeError(moment, bounds)
  const unix = fromUtcInputValue(moment)
  const confirmString = project?.name ?? projectRef
  const restoring = project?.status === 'RESTORING'

  const confirmRestore = () => {
    if (unix === undefined) return
    restore.mutate(
      { projectRef, recoveryTimeTargetUnix: unix },
      {
        // The Point in time page keeps no takeover screen (it needs no database): the project's home shows the restore.
        onSuccess: () => {
          setConfirmOpen(false)
          void navigate(`/project/${projectRef}`)
        },
        onError: (failure) => toast.error(`Failed to restore the project: ${errorMessage(failure)}`),
      },
    )
  }

  return (
    <Card
      title="Choose a moment"
      footer={
        <div className="row-wrap">
          <Button
            icon={<GitBranchPlus size={14} aria-hidden="true" />}
            disabled={Boolean(error) || !branchingEnabled || !canRestore}
            disabledReason={!canRestore ? RESTORE_NEEDS_PERMISSION : !branchingEnabled ? BRANCHING_NOT_ENABLED : undefined}
            onClick={() => setBranchOpen(true)}
          >
            Create a branch from this point
          </Button>
          <span className="spacer" />
          <Button
            variant="danger"
            icon={<History size={14} aria-hidden="true" />}
            disabled={Boolean(error) || !canRestore || restoring}
            disabledReason={!canRestore ? RESTORE_NEEDS_PERMISSION : undefined}
            onClick={() => setConfirmOpen(true)}
          >
            Restore to this point
          </Button>
        </div>
      }
    >
      <div className="stack">
        {restoring ? (
          <Alert tone="info" title="Restoration in progress" live={false}>
            The project is being restored to a moment of its history. It is offline until the restore finishes.
          </Alert>
        ) : null}
        <PointInTimeField label="Date and time" value={moment} onChange={setMoment} bounds={bounds} error={error} />
      </div>
      <TypedConfirmationDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Restore to this point"
        confirmString={confirmString}
        confirmButton="Restore project"
        loading={restore.isPending}
        onConfirm={confirmRestore}
      >
        <Alert tone="warning" title="The project goes offline while it is restored" live={false}>
          The database is brought back to <strong>{unix === undefined ? '—' : formatTimestamp(unixToIso(unix))} UTC</strong>. Every change made after that
          moment is lost.
        </Alert>
      </TypedConfirmationDialog>
      <CreateBranchDialog
        projectRef={projectRef}
        open={branchOpen}
        onOpenChange={setBranchOpen}
        recoveryTimeTargetUnix={unix}
        onCreated={() => void navigate(`/project/${projectRef}/branches`)}
      />
    </Card>
  )
}
