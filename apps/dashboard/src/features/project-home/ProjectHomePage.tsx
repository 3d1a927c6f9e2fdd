import { COMPUTE_SIZES, type ProjectStatus } from '@stratum/contracts'
import { useEffect, useRef } from 'react'
import { Alert } from '../../components/ui/Alert'
import { PageHeader } from '../../components/ui/PageHeader'
import { StatusBadge, statusLabel } from '../../components/StatusBadge'
import { useToast } from '../../components/ui/Toast'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { ConnectionDetails } from './ConnectionDetails'
import { ProvisioningCard } from './ProvisioningCard'
import './project-home.css'

const PROVISIONING: ProjectStatus[] = ['COMING_UP', 'UNKNOWN']
const FAILED: ProjectStatus[] = ['INIT_FAILED', 'PAUSE_FAILED', 'RESTORE_FAILED', 'ACTIVE_UNHEALTHY']

export function ProjectHomePage() {
  useProjectPageTitle('Home')
  const { project } = useCurrentProject()
  const toast = useToast()
  const previous = useRef<ProjectStatus | undefined>(undefined)
  const status = project?.status

  // Tell the user when the project they watched being set up is ready.
  useEffect(() => {
    if (previous.current && PROVISIONING.includes(previous.current) && status === 'ACTIVE_HEALTHY') {
      toast.success('Your project is ready', 'Postgres is up and accepting connections.')
    }
    previous.current = status
  }, [status, toast])

  if (!project) return null
  const size = COMPUTE_SIZES[project.compute_size as keyof typeof COMPUTE_SIZES]
  const provisioning = PROVISIONING.includes(project.status)

  return (
    <div className="page">
      <PageHeader
        title={project.name}
        eyebrow={
          <>
            <StatusBadge status={project.status} />
            <span className="mono">{project.ref}</span>
          </>
        }
      />
      <div className="stack">
        {provisioning ? <ProvisioningCard project={project} /> : null}
        {FAILED.includes(project.status) ? (
          <Alert tone="danger" title={statusLabel(project.status)}>
            {project.status_reason ?? 'The project is not running as it should. Contact support if this persists.'}
          </Alert>
        ) : null}
        <dl className="facts" aria-label="Project facts">
          <div className="fact">
            <dt>Status</dt>
            <dd>{statusLabel(project.status)}</dd>
          </div>
          <div className="fact">
            <dt>Postgres version</dt>
            <dd data-testid="postgres-version">{project.dbVersion || `${project.postgres_engine} (starting)`}</dd>
          </div>
          <div className="fact">
            <dt>Compute size</dt>
            <dd>
              {size?.label ?? project.compute_size}
              {size ? (
                <span className="fact-detail">
                  {size.max_connections} connections · {size.shared_buffers} shared buffers · {size.work_mem} work mem
                </span>
              ) : null}
            </dd>
          </div>
          <div className="fact">
            <dt>Region</dt>
            <dd>{project.region}</dd>
          </div>
        </dl>
        {provisioning ? null : <ConnectionDetails project={project} />}
      </div>
    </div>
  )
}
