import type { Project } from '@stratum/contracts'
import { CircleCheck, LifeBuoy } from 'lucide-react'
import { Link } from 'react-router'
import { DownloadBackupButton } from '../../components/project/DownloadBackupButton'
import { Button } from '../../components/ui/Button'
import { supportLink } from '../../lib/support'
import { StatusScreen } from './StatusScreen'

interface RestoringScreenProps {
  project: Project
  /** The project became healthy while this screen showed. */
  completed: boolean
  onReturn: () => void
}

/** RESTORING, then 'Restoration complete!' until the user returns to the project. */
export function RestoringScreen({ project, completed, onReturn }: RestoringScreenProps) {
  if (completed) {
    return (
      <StatusScreen
        tone="success"
        icon={<CircleCheck size={20} />}
        title="Restoration complete!"
        eyebrow={project.name}
        testId="restore-complete-screen"
        actions={
          <Button variant="primary" onClick={onReturn} autoFocus>
            Return to project
          </Button>
        }
      >
        <p>Your project has been restored and is back online.</p>
      </StatusScreen>
    )
  }
  return (
    <StatusScreen
      tone="progress"
      title="Restoration in progress"
      eyebrow={project.name}
      progress
      testId="restoring-screen"
      actions={
        <>
          <Link
            className="btn btn-secondary btn-md"
            to={supportLink({
              category: 'Database_unresponsive',
              ref: project.ref,
              subject: `Project ${project.name} is taking long to restore`,
            })}
          >
            <LifeBuoy size={14} aria-hidden="true" />
            Contact support
          </Link>
          <DownloadBackupButton projectRef={project.ref} orgSlug={project.organization_slug} label="Download latest backup" />
        </>
      }
    >
      <p>
        Restoration can take from a few minutes up to several hours depending on the size of your database. Your project
        is offline while it is being restored.
      </p>
      <p className="status-screen-hint">This page updates by itself. Only logical backups can be downloaded.</p>
    </StatusScreen>
  )
}
