import type { Project } from '@stratum/contracts'
import { Activity, LifeBuoy, RotateCcw } from 'lucide-react'
import { Link } from 'react-router'
import { supportLink } from '../../lib/support'
import { StatusScreen } from './StatusScreen'
import { SUPPORT_AFTER_SECONDS } from './SetupScreen'
import { useElapsedSeconds, useMountedAt } from './useElapsedSeconds'

/**
 * The project does not answer: the REST check (2 s timeout, then the database asked and a cold start waited for)
 * failed, re-checked every 4 s, or the platform's monitor could not start the instance again (ACTIVE_UNHEALTHY).
 * `databaseAnswers`: the database does answer, so the text names the REST API instead.
 */
export function ConnectingScreen({ project, databaseAnswers = false }: { project: Project; databaseAnswers?: boolean }) {
  const elapsed = useElapsedSeconds(useMountedAt())
  const base = `/project/${project.ref}`
  return (
    <StatusScreen
      tone="progress"
      title="Connecting to project"
      eyebrow={project.name}
      progress
      testId="connecting-screen"
      actions={
        <>
          <Link className="btn btn-secondary btn-md" to={`${base}/settings/infrastructure`}>
            <Activity size={14} aria-hidden="true" />
            Check database health
          </Link>
          <Link className="btn btn-secondary btn-md" to={`${base}/settings/general`}>
            <RotateCcw size={14} aria-hidden="true" />
            Troubleshoot: restart the project
          </Link>
        </>
      }
    >
      {databaseAnswers ? (
        <p>
          The project's REST API is not answering right now, though its database is. The platform starts it again on
          the next request; this page comes back by itself once it answers.
        </p>
      ) : (
        <p>
          The project's database is not answering right now. The platform keeps checking it and starts it again if it
          stopped; this page comes back by itself once it answers.
        </p>
      )}
      {project.status_reason ? <pre className="status-screen-reason">{project.status_reason}</pre> : null}
      <p className="status-screen-hint">
        {elapsed >= SUPPORT_AFTER_SECONDS ? (
          <>
            The dashboard has not connected in 2 minutes.{' '}
            <Link
              to={supportLink({
                category: 'Database_unresponsive',
                ref: project.ref,
                subject: `Project ${project.name} does not answer`,
                message: project.status_reason ? `Reason reported: ${project.status_reason}` : undefined,
              })}
            >
              <LifeBuoy size={12} aria-hidden="true" /> Contact support
            </Link>
            .
          </>
        ) : (
          'If the dashboard has not connected in 2 minutes, contact support.'
        )}
      </p>
    </StatusScreen>
  )
}
