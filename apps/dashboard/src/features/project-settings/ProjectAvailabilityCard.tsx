import type { Project } from '@stratum/contracts'
import { Pause, RotateCcw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { usePauseProject } from '../../data/lifecycle/usePauseProject'
import { useRestartProject } from '../../data/lifecycle/useRestartProject'
import { useCan } from '../../data/profile/useCan'
import { INFRASTRUCTURE_TEXTS, notRunningReason } from './permissions'

/** Restart and pause, each behind a typed confirmation of the project's name. */
export function ProjectAvailabilityCard({ project }: { project: Project }) {
  const toast = useToast()
  const permitted = useCan(project.organization_slug, 'infrastructure.execute')
  const restart = useRestartProject()
  const pause = usePauseProject()
  const [dialog, setDialog] = useState<'restart' | 'pause' | null>(null)
  const blocked = notRunningReason(project.status)

  const reason = (text: string) => (!permitted ? text : blocked)

  return (
    <Card title="Project availability" description="Take the project's Postgres offline for a moment, or until you restore it.">
      <div className="settings-row">
        <div className="settings-row-text">
          <h3>Restart project</h3>
          <p className="muted">Your project will not be available for a few minutes while Postgres restarts. Open connections are closed.</p>
        </div>
        <Button
          icon={<RotateCcw size={14} aria-hidden="true" />}
          disabled={Boolean(reason(INFRASTRUCTURE_TEXTS.restart))}
          disabledReason={reason(INFRASTRUCTURE_TEXTS.restart)}
          onClick={() => setDialog('restart')}
        >
          Restart project
        </Button>
      </div>
      <div className="settings-row">
        <div className="settings-row-text">
          <h3>Pause project</h3>
          <p className="muted">
            Your project will not be accessible while it is paused. Its data is kept, with a backup taken as it pauses, and you
            can restore it at any time.
          </p>
        </div>
        <Button
          icon={<Pause size={14} aria-hidden="true" />}
          disabled={Boolean(reason(INFRASTRUCTURE_TEXTS.pause))}
          disabledReason={reason(INFRASTRUCTURE_TEXTS.pause)}
          onClick={() => setDialog('pause')}
        >
          Pause project
        </Button>
      </div>

      <TypedConfirmationDialog
        open={dialog === 'restart'}
        onOpenChange={(open) => setDialog(open ? 'restart' : null)}
        title="Restart project"
        description={`${project.name} restarts and is offline for a few minutes. Open connections are closed.`}
        confirmString={project.name}
        confirmButton="Restart project"
        variant="primary"
        loading={restart.isPending}
        onConfirm={() =>
          restart.mutate(
            { ref: project.ref },
            {
              onSuccess: () => setDialog(null),
              onError: (error) => toast.error(`Failed to restart project: ${errorMessage(error)}`),
            },
          )
        }
      />
      <TypedConfirmationDialog
        open={dialog === 'pause'}
        onOpenChange={(open) => setDialog(open ? 'pause' : null)}
        title="Pause project"
        description={`${project.name} stops and cannot be used until you restore it. A backup of its data is taken while it pauses.`}
        confirmString={project.name}
        confirmButton="Pause project"
        loading={pause.isPending}
        onConfirm={() =>
          pause.mutate(
            { ref: project.ref },
            {
              onSuccess: () => setDialog(null),
              onError: (error) => toast.error(`Failed to pause project: ${errorMessage(error)}`),
            },
          )
        }
      />
    </Card>
  )
}
