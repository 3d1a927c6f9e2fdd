import type { Project } from '@stratum/contracts'
import { COMPUTE_SIZES } from '@stratum/contracts'
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

/** RESIZING: the new compute size's settings apply with a restart. */
export function ResizingScreen({ project }: { project: Project }) {
  const size = COMPUTE_SIZES[project.compute_size as keyof typeof COMPUTE_SIZES]
  return (
    <StatusScreen tone="progress" title="Resizing Project Compute size" eyebrow={project.name} progress testId="resizing-screen">
      <p>
        Your project is moving to the <strong>{size?.label ?? project.compute_size}</strong> compute size. It restarts to
        apply the new settings and is offline for a few minutes.
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
