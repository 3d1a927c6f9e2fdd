import type { Organization, PauseStatus, Project } from '@stratum/contracts'
import { ArrowUpCircle, Pause, Settings } from 'lucide-react'
import { Link } from 'react-router'
import { DownloadBackupButton } from '../../../components/project/DownloadBackupButton'
import { Alert } from '../../../components/ui/Alert'
import { usePauseStatus } from '../../../data/lifecycle/usePauseStatus'
import { formatDateInDays } from '../../../lib/format'
import { supportLink } from '../../../lib/support'
import { StatusScreen } from '../StatusScreen'
import { RestoreProjectButton } from './RestoreProjectButton'

export const PAUSE_STATUS_ERROR = 'Failed to retrieve pause status'

export const upgradeLink = (slug: string) => `/org/${slug}/billing?panel=subscriptionPlan&source=projectPausedStateRestore`

/** How long a free project stays restorable, or why it no longer is. */
export function RestoreDeadline({ pause, project }: { pause: PauseStatus; project: Project }) {
  if (!pause.can_restore) {
    const downloadable = pause.latest_downloadable_backup_id !== null
    return (
      <Alert
        tone="warning"
        title="This project can no longer be restored from the dashboard"
        live={false}
        actions={
          downloadable ? (
            <DownloadBackupButton
              projectRef={project.ref}
              orgSlug={project.organization_slug}
              backupId={pause.latest_downloadable_backup_id}
              size="sm"
            />
          ) : (
            <Link
              className="btn btn-secondary btn-sm"
              to={supportLink({
                category: 'Database_unresponsive',
                ref: project.ref,
                subject: `Recover the data of the paused project ${project.name}`,
              })}
            >
              Contact support
            </Link>
          )
        }
      >
        It has been paused for more than {pause.max_days_till_restore_disabled} days.{' '}
        {downloadable
          ? 'Its data is still available: download the backup and load it into a new project.'
          : 'Its data is kept, but there is no downloadable backup of it: contact support to get it back.'}
      </Alert>
    )
  }
  if (pause.remaining_days_till_restore_disabled === null) return null
  const days = pause.remaining_days_till_restore_disabled
  return (
    <p data-testid="restore-deadline">
      Free plan projects can be restored for up to {pause.max_days_till_restore_disabled} days after they are paused. This
      project can be restored until <strong>{formatDateInDays(days)}</strong> ({days} {days === 1 ? 'day' : 'days'} left).
    </p>
  )
}

interface PausedScreenProps {
  project: Project
  organization: Organization | undefined
  /** 'database' in 'Restore this project to access the database page'. */
  page: string | null
}

/** INACTIVE, on every project page except the home and settings pages. */
export function PausedScreen({ project, organization, page }: PausedScreenProps) {
  const pause = usePauseStatus(project.ref)
  const free = organization?.plan !== 'pro'
  return (
    <StatusScreen
      tone="neutral"
      icon={<Pause size={20} />}
      title={`The project "${project.name}" is currently paused`}
      testId="paused-screen"
      actions={
        <>
          <RestoreProjectButton project={project} organization={organization} canRestore={pause.data?.can_restore ?? true} />
          {free ? (
            <Link className="btn btn-secondary btn-md" to={upgradeLink(project.organization_slug)}>
              <ArrowUpCircle size={14} aria-hidden="true" />
              Upgrade to Pro
            </Link>
          ) : (
            <Link className="btn btn-secondary btn-md" to={`/project/${project.ref}/settings/general`}>
              <Settings size={14} aria-hidden="true" />
              View project settings
            </Link>
          )}
        </>
      }
    >
      <p>
        All of your project's data is still intact, but the project cannot be used while it is paused. Restore it to
        access {page ? `the ${page} page` : 'this page'}.
      </p>
      {pause.isError ? (
        <Alert tone="danger" title={PAUSE_STATUS_ERROR} live={false}>
          {pause.error.message}
        </Alert>
      ) : pause.data ? (
        <RestoreDeadline pause={pause.data} project={project} />
      ) : null}
    </StatusScreen>
  )
}
