import { COMPUTE_SIZES, type ProjectStatus } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { PageHeader } from '../../components/ui/PageHeader'
import { StatusBadge, statusLabel } from '../../components/StatusBadge'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { ConnectionDetails } from './ConnectionDetails'
import { ProjectApiCard } from './ProjectApiCard'
import './project-home.css'

/** Statuses the layout shows no takeover screen for on this page, but which need saying. */
const FAILED: ProjectStatus[] = ['INIT_FAILED', 'PAUSE_FAILED', 'RESTORE_FAILED', 'ACTIVE_UNHEALTHY']
/** The instance is not (yet, or no longer) running: connection details would not work. */
const NOT_RUNNING: ProjectStatus[] = ['COMING_UP', 'UNKNOWN', 'INIT_FAILED', 'REMOVED']

export function ProjectHomePage() {
  useProjectPageTitle('Home')
  const { project } = useCurrentProject()
  if (!project) return null
  const size = COMPUTE_SIZES[project.compute_size as keyof typeof COMPUTE_SIZES]

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
        {NOT_RUNNING.includes(project.status) ? null : <ProjectApiCard project={project} />}
        {NOT_RUNNING.includes(project.status) ? null : <ConnectionDetails project={project} />}
      </div>
    </div>
  )
}
