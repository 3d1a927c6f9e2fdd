import type { Project } from '@stratum/contracts'
import { COMPUTE_SIZES } from '@stratum/contracts'
import { useRunningOperation } from '../../data/lifecycle/operations'
import { StatusScreen } from './StatusScreen'

/** RESTARTING */
export function RestartingScreen({ project }: { project: Project }) {
  return (
    <StatusScreen tone="progress" title="Restarting..." eyebrow={project.name} progress testId="restarting-screen">
      <p>
        Your project is restarting and will be offline for a few minutes. This page comes back by itself once Postgres
        accepts connections again.
      </p>
    </StatusScreen>
  )
}

/**
 * RESIZING: the new compute size's settings apply with a restart. The size named is the resize operation's
 * recorded target: the project keeps its old size until the operation's first step records the new one.
 */
export function ResizingScreen({ project }: { project: Project }) {
  const target = useRunningOperation(project.ref, 'resize')?.target?.compute_size
  const size = target ? COMPUTE_SIZES[target as keyof typeof COMPUTE_SIZES] : undefined
  return (
    <StatusScreen tone="progress" title="Resizing Project Compute size" eyebrow={project.name} progress testId="resizing-screen">
      <p>
        {target ? (
          <>
            Your project is moving to the <strong data-testid="resize-target">{size?.label ?? target}</strong> compute size.
          </>
        ) : (
          'Your project is moving to a new compute size.'
        )}{' '}
        It restarts to apply the new settings and is offline for a few minutes.
      </p>
      {size ? (
        <p className="status-screen-hint">
          max_connections {size.max_connections} · shared_buffers {size.shared_buffers} · work_mem {size.work_mem}
        </p>
      ) : null}
    </StatusScreen>
  )
}

/** GOING_DOWN or PAUSING */
export function PausingScreen({ project }: { project: Project }) {
  return (
    <StatusScreen tone="progress" title="Pausing project" eyebrow={project.name} progress testId="pausing-screen">
      <p>
        Postgres is stopping and a backup of its data is being kept. You can restore your project at any time
        afterwards; its data will be as it was when it was paused.
      </p>
    </StatusScreen>
  )
}
