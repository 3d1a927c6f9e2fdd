import { COMPUTE_SIZE_NAMES, COMPUTE_SIZES, type ComputeSize, type Project } from '@stratum/contracts'
import { useState } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { PageHeader } from '../../components/ui/PageHeader'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useResizeProject } from '../../data/lifecycle/useResizeProject'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DiskCard } from './DiskCard'
import { INFRASTRUCTURE_TEXTS, notRunningReason } from './permissions'
import './project-settings.css'

function ComputeSizeCard({ project }: { project: Project }) {
  const toast = useToast()
  const permitted = useCan(project.organization_slug, 'infrastructure.execute')
  const resize = useResizeProject()
  const current = project.compute_size as ComputeSize
  const [chosen, setChosen] = useState<ComputeSize>(current)
  const [confirming, setConfirming] = useState(false)
  const target = COMPUTE_SIZES[chosen]
  const reason = !permitted ? INFRASTRUCTURE_TEXTS.resize : notRunningReason(project.status)

  return (
    <Card
      title="Compute size"
      description="Each size sets Postgres memory and connection limits. A change applies with a restart, so the project is offline for a few minutes."
      flush
      footer={
        <Button
          variant="primary"
          disabled={Boolean(reason) || chosen === current}
          disabledReason={reason}
          onClick={() => setConfirming(true)}
        >
          {chosen === current ? 'Choose a new size' : `Resize to ${target.label}`}
        </Button>
      }
    >
      <fieldset className="size-options">
        <legend className="visually-hidden">Compute size</legend>
        {COMPUTE_SIZE_NAMES.map((name) => {
          const size = COMPUTE_SIZES[name]
          return (
            <label key={name} className="size-option" data-checked={chosen === name} data-testid={`size-${name}`}>
              <input
                type="radio"
                name="compute_size"
                value={name}
                checked={chosen === name}
                onChange={() => setChosen(name)}
                aria-describedby={`size-${name}-settings`}
              />
              <span className="size-option-name">
                {size.label}
                {name === current ? <Badge tone="success">Current</Badge> : null}
              </span>
              <span className="size-option-settings" id={`size-${name}-settings`}>
                <span className="size-option-setting">
                  <span>max_connections</span>
                  {size.max_connections}
                </span>
                <span className="size-option-setting">
                  <span>shared_buffers</span>
                  {size.shared_buffers}
                </span>
                <span className="size-option-setting">
                  <span>work_mem</span>
                  {size.work_mem}
                </span>
              </span>
            </label>
          )
        })}
      </fieldset>
      <TypedConfirmationDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Resize to ${target.label}`}
        description={`${project.name} restarts with max_connections ${target.max_connections}, shared_buffers ${target.shared_buffers} and work_mem ${target.work_mem}. It is offline for a few minutes.`}
        confirmString={project.name}
        confirmButton={`Resize to ${target.label}`}
        variant="primary"
        loading={resize.isPending}
        onConfirm={() =>
          resize.mutate(
            { ref: project.ref, size: chosen },
            {
              onSuccess: () => setConfirming(false),
              onError: (error) => toast.error(`Failed to resize project: ${errorMessage(error)}`),
            },
          )
        }
      />
    </Card>
  )
}

/** /project/{ref}/settings/compute-and-disk */
export function ComputeAndDiskPage() {
  useProjectPageTitle('Compute and Disk')
  const { project } = useCurrentProject()
  if (!project) return null
  return (
    <div className="page page-narrow">
      <PageHeader title="Compute and Disk" description="The resources of this project's Postgres instance." />
      <div className="stack">
        {/* Keyed by the size: after a resize the choice starts from the new current size. */}
        <ComputeSizeCard key={project.compute_size} project={project} />
        <DiskCard project={project} />
      </div>
    </div>
  )
}
